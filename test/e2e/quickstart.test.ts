import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { BudgetExceededError } from '../../src/errors/index.js';
import { mergeAndFinish, runPipelineFile } from '../../src/pipeline/run-file.js';

const repoRoot = resolve(import.meta.dirname, '../..');
const quickstart = join(repoRoot, 'pipelines/quickstart.yaml');
const dirs: string[] = [];
const servers: FakeLlmServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `pf-e2e-${name}-`));
  dirs.push(dir);
  return dir;
}

const DATA_FILES = [
  'plan/plan.jsonl',
  'dialogues/dialogues.jsonl',
  'memory/memory.jsonl',
  'validation.json',
  'quarantine.jsonl',
  'export/sft/train.jsonl',
  'export/rl/test.jsonl',
  'export/eval/personamem/questions.csv',
  'report.html',
];
async function dataFiles(runDir: string, files = DATA_FILES): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of files) out[rel] = await readFile(join(runDir, rel), 'utf8').catch(() => '<missing>');
  return out;
}
async function manifest(runDir: string) {
  return JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8'));
}

const small = { personas: { train: 3, test: 2 } };

/** The offline quickstart with `small` users, run once for the tests that read it (never written to). */
let offline: Promise<string> | undefined;
function offlineRun(): Promise<string> {
  offline ??= tempDir('a').then(async (dir) => {
    await runPipelineFile(quickstart, { outDir: dir, overrides: small });
    return dir;
  });
  return offline;
}

describe('quickstart, offline', () => {
  it('runs every stage, passes its own validation, and is byte-identical on a second run', async () => {
    const a = await offlineRun();
    const b = await tempDir('b');
    await runPipelineFile(quickstart, { outDir: b, overrides: small });
    const m = await manifest(a);
    expect(m.status).toBe('complete');
    expect(m.stages.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual(
      ['plan', 'synth', 'memory', 'validate', 'export', 'report'].map((name) => [name, 'done']),
    );
    expect(m.offline).toMatchObject({ realizer: true, judge: true, embedder: true });
    const validation = JSON.parse(await readFile(join(a, 'validation.json'), 'utf8'));
    expect(validation.totals.ruleFailures).toBe(0);
    const filesA = await dataFiles(a);
    expect(Object.values(filesA)).not.toContain('<missing>');
    expect(await dataFiles(b)).toEqual(filesA);
    for (const [rel, sha] of Object.entries(m.files as Record<string, string>))
      expect(sha, rel).toMatch(/^[0-9a-f]{64}$/);
  });

  it('two shards merged equal the unsharded run', async () => {
    const whole = await offlineRun();
    const s0 = await tempDir('s0');
    const s1 = await tempDir('s1');
    const merged = await tempDir('merged');
    await runPipelineFile(quickstart, { outDir: s0, overrides: small, shard: { index: 0, count: 2 } });
    await runPipelineFile(quickstart, { outDir: s1, overrides: small, shard: { index: 1, count: 2 } });
    await mergeAndFinish([s0, s1], merged);
    expect(await dataFiles(merged)).toEqual(await dataFiles(whole));
  });
});

describe('quickstart against the fake model (the server `persona-forge dev fake-llm` runs)', () => {
  async function server(faultRate: number): Promise<FakeLlmServer> {
    // No scripted answers: the shipped fake model answers every prompt itself.
    const started = await startFakeLlmServer({
      faults: { rate: faultRate, seed: 7, retryAfterMs: 5, hangMs: 3_000 },
    });
    servers.push(started);
    return started;
  }
  const online = (url: string, cacheDir: string, price = 0) => ({
    ...small,
    llm: {
      endpoints: {
        fake: {
          baseUrl: url,
          model: 'fake-model',
          maxConcurrency: 16,
          timeoutMs: 1_000,
          maxRetries: 8,
          maxSchemaRetries: 8,
          priceInputPerM: price,
          priceOutputPerM: price,
        },
      },
      roles: { realizer: 'fake', judge: 'fake' },
      cache: { enabled: true, dir: cacheDir },
    },
  });

  it('completes with 20% injected faults, every user accounted for, faults counted; a rerun is served from the cache', async () => {
    const clean = await server(0);
    const faulty = await server(0.2);
    const reference = await tempDir('ref');
    const withFaults = await tempDir('faults');
    const rerun = await tempDir('rerun');
    const cacheRef = await tempDir('cache-ref');
    const cacheFaults = await tempDir('cache-faults');
    await runPipelineFile(quickstart, { outDir: reference, overrides: online(clean.url, cacheRef) });
    await runPipelineFile(quickstart, { outDir: withFaults, overrides: online(faulty.url, cacheFaults) });
    const faults = Object.values(faulty.stats.faults as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(faults).toBeGreaterThan(10);
    const m = await manifest(withFaults);
    expect(m.status).toBe('complete');
    expect(m.offline).toMatchObject({ realizer: false, judge: false });
    // Every user is accounted for: in the outputs of every stage, or quarantined with a reason
    // that is about content (a fault that exhausted its retries would say LLM_CALL_FAILED).
    const ids = async (dir: string, rel: string) =>
      (await readFile(join(dir, rel), 'utf8'))
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line).userId as string);
    for (const rel of ['plan/plan.jsonl', 'dialogues/dialogues.jsonl', 'memory/memory.jsonl']) {
      expect(await ids(withFaults, rel), rel).toEqual(await ids(reference, rel));
    }
    const files = ['plan/plan.jsonl', 'dialogues/dialogues.jsonl', 'memory/memory.jsonl', 'quarantine.jsonl'];
    const quarantine = (await readFile(join(withFaults, 'quarantine.jsonl'), 'utf8')).trim();
    expect(quarantine).not.toMatch(/LLM_CALL_FAILED|LLM_SCHEMA_MISMATCH/);
    // The same records as the clean run: nobody lost to the faults, nobody quarantined.
    expect(quarantine).toBe('');
    expect(m.stages.map((s: { out: number }) => s.out)).toEqual(
      (await manifest(reference)).stages.map((s: { out: number }) => s.out),
    );
    const plans = (await readFile(join(withFaults, 'plan/plan.jsonl'), 'utf8')).trim().split('\n');
    expect(plans).toHaveLength(5);

    const before = faulty.stats.chatRequests;
    await runPipelineFile(quickstart, { outDir: rerun, overrides: online(faulty.url, cacheFaults) });
    expect(faulty.stats.chatRequests).toBe(before);
    const usage = (await manifest(rerun)).usage.total;
    expect(usage.cacheHits).toBeGreaterThan(0);
    expect(usage.costUsd).toBe(0);
    expect(await dataFiles(rerun, files)).toEqual(await dataFiles(withFaults, files));
  });

  it('stops before exceeding the budget and records the stop in the manifest', async () => {
    const clean = await server(0);
    const out = await tempDir('budget');
    const cache = await tempDir('cache-budget');
    const budget = 0.5;
    await expect(
      runPipelineFile(quickstart, {
        outDir: out,
        overrides: online(clean.url, cache, 20),
        budgetUsd: budget,
      }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    const m = await manifest(out);
    expect(m.status).toBe('stopped: budget');
    expect(m.usage.total.costUsd).toBeLessThanOrEqual(budget);
    expect(m.usage.total.costUsd).toBeGreaterThan(0);
  });
});
