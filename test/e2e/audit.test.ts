import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalOracle } from '../../src/dev/fake-llm/responders/eval-oracle.js';
import { startFakeLlmServer } from '../../src/dev/fake-llm/server.js';
import { copySharedRun } from '../support/shared-run.js';

/**
 * `bench/audit/review.ts` as README documents it: a review sheet of 20 records per task, marked
 * by a judge endpoint — here the fake model's oracle over the run's own evaluation sets, which
 * answers the gold for a chosen share of questions, so the acceptance it reports is known.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);
let work: string;
let run: string;

interface Acceptance {
  marked: number;
  accepted: number;
  rate: number;
  low: number;
  high: number;
}

async function review(args: string[]) {
  const { stdout } = await exec(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'bench/audit/review.ts'), ...args],
    { cwd: repoRoot, maxBuffer: 1 << 26 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as {
    records: number;
    tasks: number;
    acceptance?: Record<string, Acceptance>;
  };
}

async function judgedBy(rate: number, out: string) {
  const respond = await createEvalOracle({ set: join(run, 'export/eval'), rate });
  const server = await startFakeLlmServer({ respond });
  try {
    return await review([
      run,
      '--out',
      out,
      '--splits',
      'test',
      '--no-memory',
      '--judge-base-url',
      server.url,
      '--judge-model',
      'fake',
    ]);
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-audit-'));
  run = join(work, 'run');
  // The offline quickstart, run once for every test file that reads it.
  await copySharedRun('quickstart', run);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('bench/audit/review.ts', () => {
  it('writes a sheet of at most 20 records per task with labels and evidence', async () => {
    const out = join(work, 'sheet');
    const summary = await review([run, '--out', out]);
    const records = (await readFile(join(out, 'review.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            task: string;
            kind: string;
            label: string;
            evidence: string[];
            unanswerable: boolean;
            decision: null;
          },
      );
    expect(records).toHaveLength(summary.records);
    const perTask = new Map<string, number>();
    for (const record of records) perTask.set(record.task, (perTask.get(record.task) ?? 0) + 1);
    expect(Math.max(...perTask.values())).toBe(20);
    expect([...perTask.keys()].some((task) => task.startsWith('memory:'))).toBe(true);
    for (const record of records) {
      expect(record.label).not.toBe('');
      expect(record.decision).toBeNull();
      // An answerable question shows what it rests on (an unanswerable one, adversarial or about
      // someone never named, may have nothing to show).
      if (record.kind === 'question' && !record.unanswerable)
        expect(record.evidence.length).toBeGreaterThan(0);
    }
    const markdown = await readFile(join(out, 'review.md'), 'utf8');
    expect(markdown).toContain('- [ ] accept  - [ ] reject');
  }, 300_000);

  it('with a judge that always answers the gold, accepts every label (interval above 80% for 20)', async () => {
    const summary = await judgedBy(1, join(work, 'judged-all'));
    const tasks = Object.entries(summary.acceptance ?? {});
    expect(tasks.length).toBeGreaterThan(5);
    for (const [task, entry] of tasks) {
      expect(entry.rate, task).toBe(1);
      if (entry.marked === 20) expect(entry.low, task).toBeGreaterThan(0.8);
    }
  }, 300_000);

  it('with a judge that never answers the gold, rejects every label', async () => {
    const summary = await judgedBy(0, join(work, 'judged-none'));
    for (const [task, entry] of Object.entries(summary.acceptance ?? {})) {
      expect(entry.rate, task).toBe(0);
      if (entry.marked === 20) expect(entry.high, task).toBeLessThan(0.2);
    }
    const score = await exec(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repoRoot, 'bench/audit/review.ts'),
        '--score',
        join(work, 'judged-none/review.jsonl'),
      ],
      { cwd: repoRoot },
    );
    expect(JSON.parse(score.stdout).tasks).toEqual(summary.acceptance);
  }, 300_000);
});
