import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { runCli } from '../support/cli.js';
import { fakeModelArgs } from '../support/fake-llm.js';
import { runDataText } from '../support/run-data.js';

/**
 * Nothing lost through the shipped binary: a budget stop is a clean, resumable stop; users lost
 * to model faults come back on the next run of the same command; throttling loses nobody.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
let work: string;
let small: string;

const data = (dir: string) => runDataText(dir);
/** manifest.files without report.html (its header differs with the spending, see `data`). */
const dataFiles = (files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).filter(([path]) => path !== 'report.html'));
async function quarantine(dir: string): Promise<Array<{ stage: string; code: string; reason: string }>> {
  const text = await readFile(join(dir, 'quarantine.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}
const RETRYABLE = ['LLM_CALL_FAILED', 'LLM_SCHEMA_MISMATCH', 'SYNTH_FAILED', 'DISK_FULL', 'BUDGET_EXCEEDED'];

/** A folder to run in: the answer cache (`.pf-cache/llm`) is relative to it, so each has its own. */
async function cwd(name: string): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-nothing-lost-'));
  small = join(work, 'small.yaml');
  await writeFile(
    small,
    `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\npersonas:\n  train: 4\n  test: 2\n`,
  );
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('--budget-usd reached while the memory teacher is asking', () => {
  it('exits 4 with "stopped: budget" and no lock left; a larger budget completes identically', async () => {
    const server = await startFakeLlmServer({});
    try {
      const priced = join(work, 'priced.yaml');
      await writeFile(
        priced,
        [
          `extends: ${small}`,
          'llm:',
          '  endpoints:',
          `    paid: { baseUrl: ${server.url}, model: fake, maxConcurrency: 8, priceInputPerM: 20, priceOutputPerM: 20 }`,
          // The embedder is online too: the walk awaits it while teacher calls are in flight.
          '  roles: { realizer: paid, judge: paid, embedder: paid }',
        ].join('\n'),
      );
      const full = join(work, 'budget-full');
      expect((await runCli(await cwd('budget-a'), ['run', priced, '--out', full, '--quiet'])).code).toBe(0);
      const byStage = JSON.parse(await readFile(join(full, 'manifest.json'), 'utf8')).usage.byStage as Record<
        string,
        { costUsd: number }
      >;
      const cost = (stage: string) => byStage[stage]?.costUsd ?? 0;
      expect(cost('memory')).toBeGreaterThan(0.5);
      // Half-way through the memory stage (its own cache folder, so the stopped run really pays).
      const budget = cost('plan') + cost('synth') + cost('memory') / 2;
      const stopped = join(work, 'budget-stopped');
      const there = await cwd('budget-b');
      const first = await runCli(there, ['run', priced, '--out', stopped, '--budget-usd', String(budget)]);
      expect(first.stderr).not.toMatch(/\n\s+at |Node\.js v/);
      expect(first.stderr).toMatch(/BUDGET_EXCEEDED/);
      expect(first.code).toBe(4);
      const manifest = JSON.parse(await readFile(join(stopped, 'manifest.json'), 'utf8'));
      expect(manifest.status).toBe('stopped: budget');
      // It stopped before spending more than the budget.
      expect(manifest.usage.total.costUsd).toBeLessThanOrEqual(budget + 1e-9);
      expect(manifest.stages.find((s: { name: string }) => s.name === 'memory').status).toBe('stopped');
      await expect(readFile(join(stopped, '.pf-lock'))).rejects.toThrow();
      const json = await runCli(await cwd('budget-c'), [
        'run',
        priced,
        '--out',
        join(work, 'budget-json'),
        '--json',
        '--budget-usd',
        String(budget),
      ]);
      expect(json.code).toBe(4);
      const events = json.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.at(-1)).toMatchObject({ type: 'error', code: 'BUDGET_EXCEEDED', exitCode: 4 });
      const resumed = await runCli(there, [
        'run',
        priced,
        '--out',
        stopped,
        '--budget-usd',
        String(budget * 10),
        '--quiet',
      ]);
      expect(resumed.code).toBe(0);
      expect(await data(stopped)).toEqual(await data(full));
    } finally {
      await server.close();
    }
  }, 300_000);
});

/** `run` of the small pipeline against a model at `url`, into `out`. */
const online = (url: string, out: string) => ['run', small, '--out', out, ...fakeModelArgs(url), '--quiet'];

describe('model faults and throttling, against one unfaulted run', () => {
  let healthy: FakeLlmServer;
  let clean: string;
  beforeAll(async () => {
    healthy = await startFakeLlmServer({});
    clean = join(work, 'clean');
    expect((await runCli(await cwd('clean-cwd'), online(healthy.url, clean))).code).toBe(0);
  });
  afterAll(async () => {
    await healthy?.close();
  });

  it('users lost to model faults come back: a faulty run, then the same command on a healthy endpoint: no retryable quarantine left, the bytes of an unfaulted run', async () => {
    const faulty = await startFakeLlmServer({
      faults: { rate: 0.5, seed: 3, kinds: ['non-json', 'schema-invalid', '500'], retryAfterMs: 5 },
    });
    // The default session teacher: a session call a fault cut short is asked again as a session
    // call (never per trace), so the healthy rerun writes the targets an unfaulted run writes.
    try {
      const out = join(work, 'retry');
      const there = await cwd('retry-cwd');
      const first = await runCli(there, online(faulty.url, out));
      expect([0, 3]).toContain(first.code);
      const lost = (await quarantine(out)).filter((q) => RETRYABLE.includes(q.code));
      // The faults did cost users (else this test proves nothing).
      expect(lost.length).toBeGreaterThan(0);
      const rerun = await runCli(there, online(healthy.url, out));
      expect(rerun.code).toBe(0);
      expect((await quarantine(out)).filter((q) => RETRYABLE.includes(q.code))).toEqual([]);
      expect(await quarantine(out)).toEqual(await quarantine(clean));
      expect(await data(out)).toEqual(await data(clean));
      const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
      const want = JSON.parse(await readFile(join(clean, 'manifest.json'), 'utf8'));
      expect(manifest.status).toBe('complete');
      expect(dataFiles(manifest.files)).toEqual(dataFiles(want.files));
    } finally {
      await faulty.close();
    }
  });

  it('throttling: 30% of calls answered 429: no user lost, none labelled a schema failure, the bytes of an unthrottled run', async () => {
    const throttled = await startFakeLlmServer({
      faults: { rate: 0.3, seed: 11, kinds: ['429'], retryAfterMs: 2 },
    });
    try {
      const out = join(work, 'throttled');
      const result = await runCli(await cwd('throttle-cwd'), online(throttled.url, out));
      // Enough throttling to matter (the memory teacher asks once per session, so ~60 at 30%).
      expect(throttled.stats.faults['429']).toBeGreaterThan(40);
      expect((await quarantine(out)).map((q) => `${q.stage} ${q.code}: ${q.reason}`)).toEqual(
        (await quarantine(clean)).map((q) => `${q.stage} ${q.code}: ${q.reason}`),
      );
      expect(result.code).toBe(0);
      expect(await data(out)).toEqual(await data(clean));
    } finally {
      await throttled.close();
    }
  });
});
