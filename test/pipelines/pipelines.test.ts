import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/config/index.js';
import type { M2aSample } from '../../src/export/systems/index.js';
import type { PersonalizationTask } from '../../src/export/systems/vitabench.js';
import { createLlmClient } from '../../src/llm/index.js';
import { defaultStages } from '../../src/pipeline/registry.js';
import { runPipeline } from '../../src/pipeline/runner.js';
import { resolvePlanSettings } from '../../src/schemas/plan-config.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = ['personavlm', 'persona-tree', 'm2a', 'vitabench'] as const;
type Name = (typeof NAMES)[number];
const file = (name: Name) => join(repoRoot, 'pipelines', `${name}.yaml`);

/** Small offline runs: 3 train + 2 test personas, long test contexts shortened where they dominate the time. */
const SMALL: Record<Name, unknown> = {
  personavlm: { personas: { train: 3, test: 2 }, plan: { testContexts: ['32k'] } },
  'persona-tree': { personas: { train: 3, test: 2 } },
  m2a: { personas: { train: 3, test: 2 } },
  vitabench: { personas: { train: 3, test: 2 }, plan: { horizonDays: { test: [60, 120] } } },
};

const runs = new Map<Name, string>();
const readJson = async <T>(name: Name, path: string): Promise<T> =>
  JSON.parse(await readFile(join(runs.get(name)!, path), 'utf8')) as T;
const readRows = async (name: Name, path: string): Promise<Array<Record<string, unknown>>> =>
  (await readFile(join(runs.get(name)!, path), 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  for (const name of NAMES) {
    const { config } = await loadPipeline(file(name), { env: {}, overrides: SMALL[name] });
    const outDir = await mkdtemp(join(tmpdir(), `pf-pipeline-${name}-`));
    const llm = createLlmClient(config.llm, { cache: false, env: {} });
    const summary = await runPipeline({
      config,
      configFile: file(name),
      outDir,
      llm,
      stages: defaultStages,
      shard: null,
    });
    runs.set(name, outDir);
    if (!summary.ok) throw new Error(`${name}: ${summary.message ?? JSON.stringify(summary.stages)}`);
  }
}, 180_000);
afterAll(async () => {
  for (const dir of runs.values()) await rm(dir, { recursive: true, force: true });
});

describe('pipeline files', () => {
  it('load and carry the published defaults', async () => {
    const loaded = Object.fromEntries(
      await Promise.all(
        NAMES.map(async (name) => [name, (await loadPipeline(file(name), { env: {} })).config] as const),
      ),
    );
    const vlm = loaded.personavlm!;
    expect(vlm.stages).toEqual(['plan', 'synth', 'memory', 'validate', 'export', 'report']);
    expect([vlm.personas.train, vlm.personas.test]).toEqual([500, 200]);
    const vlmPlan = resolvePlanSettings(vlm.plan);
    expect(vlmPlan.contexts['32k']?.rounds).toEqual([20, 100]);
    expect(vlmPlan.contexts['128k']?.rounds).toEqual([100, 500]);
    expect(vlmPlan.horizonDays).toEqual({ train: [14, 30], test: [30, 90] });
    expect(vlmPlan.multimodal.ratio[0]).toBeGreaterThanOrEqual(0.15);
    expect(vlm.export.sft.mix.weights.reasoning).toBe(0.436);
    expect(vlm.export.rl.mix.weights).toEqual({ open: 0.21, mc: 0.556, binary: 0.234 });

    const tree = loaded['persona-tree']!;
    expect(tree.memory.tree.chunkTurns).toBe(3);
    expect(tree.export.rl.mix.weights).toEqual({ tree_ops: 1 });
    expect(resolvePlanSettings(tree.plan).qa.personaMem).toBeGreaterThan(0);

    const m2a = loaded.m2a!;
    expect(m2a.export.systems.m2a.enabled).toBe(true);
    expect(m2a.export.systems.m2a.hostFile).toBeUndefined();
    expect(m2a.synth.concepts.qaMix).toEqual({ multiHop: 2, temporal: 3, openDomain: 1, singleHop: 4 });
    expect(m2a.synth.concepts.sessions).toEqual([5, 6]);
    expect(await readFile(file('m2a'), 'utf8')).toMatch(/# hostFile: .*locomo10\.json/);

    const vita = loaded.vitabench!;
    const vitaPlan = resolvePlanSettings(vita.plan);
    expect(vitaPlan.preferences.initial).toEqual([25, 68]);
    expect(vitaPlan.drift.perUserMeans).toEqual({ add: 36.07, delete: 7.52, modify: 4.79 });
    expect(vitaPlan.noise.ratio).toBe(0.2);
    expect(vita.synth.behaviors.noiseRate).toBe(0.2);
    expect(vita.export.systems.vitabench).toMatchObject({ enabled: true, subtasks: [10, 20] });
  });

  it.each(NAMES)('%s runs end to end offline: complete, 0 rule failures', async (name) => {
    const manifest = await readJson<{ status: string; stages: Array<{ name: string }> }>(
      name,
      'manifest.json',
    );
    expect(manifest.status).toBe('complete');
    expect(manifest.stages.map((s) => s.name)).toEqual([
      'plan',
      'synth',
      'memory',
      'validate',
      'export',
      'report',
    ]);
    const validation = await readJson<{ totals: { ruleFailures: number; users: number } }>(
      name,
      'validation.json',
    );
    expect(validation.totals.ruleFailures).toBe(0);
    expect(validation.totals.users).toBe(5);
    expect(existsSync(join(runs.get(name)!, 'report.html'))).toBe(true);
  });

  it('personavlm: SFT/RL mixes, ≥ 15% multimodal user turns, Persona-MME questions', async () => {
    const sft = await readRows('personavlm', 'export/sft/train.jsonl');
    expect(new Set(sft.map((r) => r.task))).toEqual(
      new Set([
        'reasoning',
        'personality_inference',
        'semantic_write',
        'core_update',
        'procedural_update',
        'episodic_summary',
      ]),
    );
    const validation = await readJson<{ totals: { userTurns: number; imageTurns: number } }>(
      'personavlm',
      'validation.json',
    );
    expect(validation.totals.imageTurns / validation.totals.userTurns).toBeGreaterThanOrEqual(0.15);
    expect(existsSync(join(runs.get('personavlm')!, 'export/eval/persona-mme'))).toBe(true);
  });

  it('persona-tree: op supervision and MemListener RL op-list rows with gt_ops', async () => {
    const sft = await readRows('persona-tree', 'export/sft/train.jsonl');
    const rl = await readRows('persona-tree', 'export/rl/train.jsonl');
    expect(sft.length).toBeGreaterThan(0);
    expect(new Set(sft.map((r) => r.task))).toEqual(new Set(['tree_ops']));
    expect(rl.length).toBeGreaterThan(0);
    for (const row of rl) {
      expect(row.task).toBe('tree_ops');
      expect(String(row.gt_ops)).toMatch(/^(ADD|UPDATE|DELETE|NO_OP)\(/m);
    }
  });

  it('m2a: merged.json in M²A shape with concept QA 6–9', async () => {
    const merged = await readJson<M2aSample[]>('m2a', 'export/eval/m2a/merged.json');
    const report = await readJson<{ samples: unknown[]; skipped: unknown[] }>(
      'm2a',
      'export/eval/m2a/report.json',
    );
    expect(merged.length).toBeGreaterThan(0);
    expect(merged.length + report.skipped.length).toBe(5);
    for (const sample of merged) {
      expect(sample.conversation.n_session).toBeGreaterThan(5);
      expect(new Set(sample.qa.map((q) => q.category))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    }
  });

  it('vitabench: tasks.json with ordered subtasks and preference memory', async () => {
    const tasks = await readJson<PersonalizationTask[]>('vitabench', 'export/eval/vitabench/tasks.json');
    expect(tasks).toHaveLength(5);
    for (const task of tasks) {
      expect(task.subtasks.length).toBeGreaterThanOrEqual(1);
      expect(task.subtasks.length).toBeLessThanOrEqual(20);
      const last = task.subtasks[task.subtasks.length - 1]!;
      expect(Object.keys(last.user_scenario.personalized_preference_memory.current).length).toBeGreaterThan(
        0,
      );
    }
    expect(tasks.flatMap((t) => t.subtasks).some((s) => s.skill_tested.includes('update'))).toBe(true);
    // The subtasks need the user's history (issue 27, item 3), as validation.json reads them.
    const { fidelity } = await readJson<{ fidelity: Record<string, { ok: boolean | null }> }>(
      'vitabench',
      'validation.json',
    );
    for (const name of [
      'vitabench_history_blind_accuracy',
      'vitabench_single_fit_share',
      'vitabench_name_leak',
      'vitabench_oracle_misses',
    ])
      expect(fidelity[name]?.ok, name).toBe(true);
    // The behaviour logs carry the configured 20% noise over the run (within 2 points).
    expect((fidelity as Record<string, unknown>).behavior_noise_rate).toMatchObject({ target: 20, ok: true });
  });
});
