import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/errors/index.js';
import { mergeShards } from '../../src/pipeline/merge.js';
import type { RunEvent } from '../../src/pipeline/progress.js';
import { runPipeline } from '../../src/pipeline/runner.js';
import { createCountingLlm, createTestStages, testConfig } from '../support/test-stages.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pf-runner-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataFiles(runDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of ['plan/plan.jsonl', 'dialogues/dialogues.jsonl', 'validation.json', 'quarantine.jsonl']) {
    out[rel] = await readFile(join(runDir, rel), 'utf8').catch(() => '<missing>');
  }
  return out;
}

describe('runPipeline', () => {
  it('writes outputs in user order, quarantines failures with reasons, and records a manifest', async () => {
    const out = await tempDir();
    const summary = await runPipeline({
      config: testConfig(),
      configFile: 'test.yaml',
      outDir: out,
      llm: createCountingLlm(),
      stages: createTestStages({ users: 12, delayMs: 1, failUsers: ['user-0003'] }),
    });
    expect(summary.ok).toBe(true);
    const plan = (await readFile(join(out, 'plan/plan.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(plan.map((r: { userId: string }) => r.userId)).toEqual(
      Array.from({ length: 12 }, (_, i) => `user-${String(i).padStart(4, '0')}`),
    );
    const dialogues = (await readFile(join(out, 'dialogues/dialogues.jsonl'), 'utf8')).trim().split('\n');
    expect(dialogues).toHaveLength(11);
    const quarantine = (await readFile(join(out, 'quarantine.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(quarantine[0]).toMatchObject({
      stage: 'synth',
      inputId: 'user-0003',
      reason: 'cannot realize user-0003 on purpose',
    });
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.status).toBe('complete');
    expect(manifest.stages.map((s: { name: string; out: number }) => [s.name, s.out])).toEqual([
      ['plan', 12],
      ['synth', 11],
      ['validate', 11 - quarantine.filter((q: { stage: string }) => q.stage === 'validate').length],
    ]);
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining([
        'plan/plan.jsonl',
        'dialogues/dialogues.jsonl',
        'validation.json',
        'quarantine.jsonl',
      ]),
    );
    expect(manifest.files['plan/plan.jsonl']).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.offline).toEqual({ realizer: true });
  });

  it('is byte-identical across runs with the same seed, and differs with another seed', async () => {
    const a = await tempDir();
    const b = await tempDir();
    const c = await tempDir();
    const stages = createTestStages({ users: 20 });
    await runPipeline({ config: testConfig(), configFile: 't', outDir: a, llm: createCountingLlm(), stages });
    await runPipeline({
      config: testConfig({ concurrency: 1 }),
      configFile: 't',
      outDir: b,
      llm: createCountingLlm(),
      stages,
    });
    await runPipeline({
      config: testConfig({ seed: 8 }),
      configFile: 't',
      outDir: c,
      llm: createCountingLlm(),
      stages,
    });
    const filesA = await dataFiles(a);
    expect(await dataFiles(b)).toEqual(filesA);
    expect((await dataFiles(c))['plan/plan.jsonl']).not.toEqual(filesA['plan/plan.jsonl']);
  });

  it('skips finished stages on a second run and resumes a stage from its journal', async () => {
    const out = await tempDir();
    const reference = await tempDir();
    const stages = createTestStages({ users: 10 });
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: reference,
      llm: createCountingLlm(),
      stages,
    });

    // Simulate a crash mid-synth: plan complete, synth journal holds 4 users and a torn line.
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: out,
      llm: createCountingLlm(),
      stages,
      only: ['plan'],
    });
    const journal = (await readFile(join(reference, 'dialogues/dialogues.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .slice(0, 4)
      .map((line) => JSON.stringify({ userId: JSON.parse(line).userId, ok: true, record: JSON.parse(line) }));
    const fingerprint = (await readFile(join(out, '.state/plan.fingerprint'), 'utf8')).trim();
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const events: RunEvent[] = [];
    // Run synth once with `only` to learn its fingerprint file, then replace its journal.
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: out,
      llm: createCountingLlm(),
      stages,
      only: ['plan'],
    });
    await writeFile(join(out, '.state/synth.journal.jsonl'), `${journal.join('\n')}\n{"userId":"user-00`);
    const { stageFingerprints } = await import('../../src/pipeline/stage-state.js');
    await writeFile(
      join(out, '.state/synth.fingerprint'),
      `${stageFingerprints(testConfig(), null).synth}\n`,
    );
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: out,
      llm: createCountingLlm(),
      stages,
      reporter: (e) => events.push(e),
    });
    expect(events).toContainEqual({
      type: 'stage-skip',
      stage: 'plan',
      reason: 'already complete for this configuration',
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'stage-start', stage: 'synth', total: 10, resumed: 4 }),
    );
    expect(await dataFiles(out)).toEqual(await dataFiles(reference));
    expect(await readdir(join(out, '.state'))).not.toContain('synth.journal.jsonl');
  });

  it('stops before exceeding the budget, keeps finished users, and resumes with a larger budget', async () => {
    const out = await tempDir();
    const reference = await tempDir();
    const stages = createTestStages({ users: 10, llmCalls: 2 });
    await runPipeline({
      config: testConfig({ concurrency: 1 }),
      configFile: 't',
      outDir: reference,
      llm: createCountingLlm(),
      stages,
    });
    const capped = createCountingLlm(0.07);
    await expect(
      runPipeline({
        config: testConfig({ concurrency: 1 }),
        configFile: 't',
        outDir: out,
        llm: capped,
        stages,
      }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    expect(capped.usage().total.costUsd).toBeLessThanOrEqual(0.07 + 1e-9);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.status).toBe('stopped: budget');
    expect(manifest.stages.find((s: { name: string }) => s.name === 'synth').status).toBe('stopped');
    const journal = (await readFile(join(out, '.state/synth.journal.jsonl'), 'utf8')).trim().split('\n');
    expect(journal).toHaveLength(3);
    const resumed = createCountingLlm();
    await runPipeline({
      config: testConfig({ concurrency: 1 }),
      configFile: 't',
      outDir: out,
      llm: resumed,
      stages,
    });
    expect(resumed.calls).toBe(14);
    expect(await dataFiles(out)).toEqual(await dataFiles(reference));
  });

  it('two shards merged equal the unsharded run', async () => {
    const whole = await tempDir();
    const s0 = await tempDir();
    const s1 = await tempDir();
    const merged = await tempDir();
    const stages = createTestStages({ users: 15, failUsers: ['user-0004', 'user-0011'] });
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: whole,
      llm: createCountingLlm(),
      stages,
    });
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: s0,
      llm: createCountingLlm(),
      stages,
      shard: { index: 0, count: 2 },
    });
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: s1,
      llm: createCountingLlm(),
      stages,
      shard: { index: 1, count: 2 },
    });
    const shard0 = (await readFile(join(s0, 'plan/plan.jsonl'), 'utf8')).trim().split('\n');
    expect(shard0.length).toBeGreaterThan(0);
    expect(shard0.length).toBeLessThan(15);
    await expect(readFile(join(s0, 'validation.json'))).rejects.toThrow();
    const config = await mergeShards([s1, s0], merged, stages);
    await runPipeline({ config, configFile: 't', outDir: merged, llm: createCountingLlm(), stages });
    expect(await dataFiles(merged)).toEqual(await dataFiles(whole));
  });

  it('refuses to merge an incomplete set of shards', async () => {
    const s0 = await tempDir();
    const stages = createTestStages({ users: 4 });
    await runPipeline({
      config: testConfig(),
      configFile: 't',
      outDir: s0,
      llm: createCountingLlm(),
      stages,
      shard: { index: 0, count: 3 },
    });
    await expect(mergeShards([s0], await tempDir(), stages)).rejects.toThrow(/shards 1\/3, 2\/3 are missing/);
  });
});
