import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StageError } from '../../src/errors/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { ValidateConfig } from '../../src/schemas/validate-config.js';
import { validateRun } from '../../src/validate/validate-run.js';
import type { ValidateJobData } from '../../src/validate/validate-user-job.js';
import { runCli, runFiles } from '../support/cli.js';

/** The memory, validate and export stages on worker threads (offline) write the same bytes as in one thread. */
const repoRoot = resolve(import.meta.dirname, '../..');
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-workers-'));
  await writeFile(
    join(work, 'small.yaml'),
    `extends: ${join(repoRoot, 'pipelines/personavlm.yaml')}\npersonas:\n  train: 10\n  test: 4\n`,
  );
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: run records are edited and inspected loosely in tests
type Json = Record<string, any>;

/** The small pipeline run on one thread (`<work>/one`), made once for every test that reads it. */
let oneThread: Promise<{ code: number; stderr: string }> | null = null;
const runOnOneThread = () => {
  oneThread ??= runCli(work, ['run', 'small.yaml', '--out', 'one', '--workers', '1', '--quiet']);
  return oneThread;
};

/** Rewrites a JSON Lines file of the run record by record (`edit` returns null to drop a record). */
async function editLines(path: string, edit: (record: Json, i: number) => Json | null): Promise<void> {
  const records = (await readFile(path, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const out = records.map((line, i) => edit(JSON.parse(line) as Json, i)).filter((r) => r !== null);
  await writeFile(path, `${out.map((record) => JSON.stringify(record)).join('\n')}\n`);
}

/** The checks of the default pipeline settings (what `validate` of the small pipeline reads, but for its plan and export sections). */
const defaultJob = (): ValidateJobData => ({
  config: ValidateConfig.parse({}),
  exportConfig: ExportConfig.parse({}),
  qaWeights: {},
  tree: { schemaPath: null, maxExtensionDepth: 1 },
  poolDir: null,
});

const userTurns = (dialogue: Json, session: number): Json[] =>
  dialogue.sessions[session].turns.filter((turn: Json) => turn.speaker === 'user');

/**
 * Defects of every kind validate folds across users: rounds and sessions quarantined (judges),
 * questions dropped with them, a whole user quarantined, users skipped before their checks.
 */
async function plantDefects(run: string): Promise<void> {
  const evidence = new Map<string, Set<string>>();
  await editLines(join(run, 'plan/plan.jsonl'), (plan) => {
    evidence.set(plan.userId, new Set(plan.qa.flatMap((qa: Json) => qa.evidenceSlotIds)));
    return plan;
  });
  await editLines(join(run, 'dialogues/dialogues.jsonl'), (dialogue, i) => {
    const plain = (turn: Json) => turn.images.length === 0 && !turn.text.includes('<image>');
    if (i === 1) {
      // A round repeating an earlier one of its session, word for word.
      const [first, second] = userTurns(dialogue, 0).filter((turn) => plain(turn) && turn.slots.length === 0);
      second!.text = first!.text;
    }
    if (i === 2) {
      // A blocklisted phrase in a round that is the evidence of questions.
      const asked = evidence.get(dialogue.userId)!;
      const turn = userTurns(dialogue, 1).find(
        (t) => plain(t) && t.slots.some((id: string) => asked.has(id)),
      );
      turn!.text += ' Here is my credit card number.';
    }
    if (i === 4) return null; // no dialogue
    if (i === 6)
      for (const session of dialogue.sessions)
        for (const turn of session.turns)
          if (turn.speaker === 'user') turn.text = 'I went for a long walk by the river this morning.';
    if (i === 8) dialogue.sessions[1].turns[2].time = '2000-01-01T00:00:00.000Z';
    return dialogue;
  });
  await editLines(join(run, 'memory/memory.jsonl'), (memory, i) =>
    i === 5 ? { ...memory, offline: 'yes' } : memory,
  );
}

describe('--workers', () => {
  it('gives byte-identical outputs with 1 and with 3 worker threads', async () => {
    const one = await runOnOneThread();
    expect(one.code, one.stderr).toBe(0);
    const three = await runCli(work, ['run', 'small.yaml', '--out', 'three', '--workers', '3', '--quiet']);
    expect(three.code, three.stderr).toBe(0);
    const a = await runFiles(join(work, 'one'));
    const b = await runFiles(join(work, 'three'));
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
    expect(a.get('memory/memory.jsonl')?.length).toBeGreaterThan(100_000);
  }, 180_000);

  it('gives the same bytes with the workers run from the TypeScript sources (PERSONA_FORGE_WORKER_SOURCES=1) as compiled', async () => {
    const one = await runOnOneThread();
    expect(one.code, one.stderr).toBe(0);
    const sources = await runCli(
      work,
      ['run', 'small.yaml', '--out', 'sources', '--workers', '2', '--quiet'],
      {
        ...process.env,
        PERSONA_FORGE_WORKER_SOURCES: '1',
      },
    );
    expect(sources.code, sources.stderr).toBe(0);
    const a = await runFiles(join(work, 'one'));
    const b = await runFiles(join(work, 'sources'));
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
  }, 180_000);

  it('validates a corpus with planted defects to the same validation.json and quarantine records on 1 and 3 threads', async () => {
    expect((await runOnOneThread()).code).toBe(0);
    const runs = ['defects-1', 'defects-3'];
    for (const run of runs) {
      await cp(join(work, 'one'), join(work, run), { recursive: true });
      await plantDefects(join(work, run));
    }
    for (const [run, workers] of [
      ['defects-1', '1'],
      ['defects-3', '3'],
    ] as const) {
      const result = await runCli(work, ['validate', run, '--workers', workers, '--quiet']);
      expect(result.code, result.stderr).toBe(0);
    }
    const read = (run: string, file: string) => readFile(join(work, run, file), 'utf8');
    expect(await read('defects-3', 'validation.json')).toBe(await read('defects-1', 'validation.json'));
    const quarantine = await read('defects-1', 'quarantine.jsonl');
    expect(await read('defects-3', 'quarantine.jsonl')).toBe(quarantine);
    // The equality covers every path of the fold, not an empty report.
    const report = JSON.parse(await read('defects-1', 'validation.json')) as Json;
    expect(report.totals.quarantinedUnits).toBeGreaterThanOrEqual(2);
    expect(report.totals.droppedQa).toBeGreaterThan(0);
    expect(report.totals.quarantinedUsers).toBeGreaterThanOrEqual(2);
    expect(report.dedup.duplicateUtterances).toBeGreaterThan(0);
    const records = quarantine
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Json)
      .filter((record) => record.stage === 'validate');
    expect(records.filter((record) => record.check === 'input').map((r) => r.reason)).toEqual([
      'no dialogue (quarantined by synth)',
      expect.stringMatching(/^memory record fails its schema/),
    ]);
    expect(records.some((record) => record.check === 'judge:safety' && record.details?.unit === 'turn')).toBe(
      true,
    );
    expect(records.some((record) => record.check === 'chronology')).toBe(true);
  }, 180_000);

  it('fails the validate stage with a clear error when a worker thread dies, without hanging', async () => {
    expect((await runOnOneThread()).code).toBe(0);
    const job = defaultJob();
    const worker = {
      module: new URL('../support/validate-job-that-fails.ts', import.meta.url),
      exportName: 'validateJobThatFails',
    };
    const crashed = await validateRun(join(work, 'one'), { job, workers: 2, worker }).catch(
      (e: unknown) => e,
    );
    expect(crashed).toBeInstanceOf(StageError);
    // The worker ends at its second job (the second user): the first was folded, and is named.
    const [first] = (await readFile(join(work, 'one/plan/plan.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as Json).userId as string);
    expect((crashed as Error).message).toBe(
      `stage "validate": a worker thread failed while checking the users after ${first}: worker thread exited with code 7`,
    );
    // A worker out of memory fails the stage the same way.
    const starved = await validateRun(join(work, 'one'), { job, workers: 2, maxHeapMb: 2 }).catch(
      (e: unknown) => e,
    );
    expect(starved).toBeInstanceOf(StageError);
    expect((starved as Error).message).toMatch(
      /a worker thread failed while checking the first user: .*memory/,
    );
  }, 60_000);

  it('with a judge model, judges on the main thread and rules on workers: the same report and quarantine records as one thread', async () => {
    expect((await runOnOneThread()).code).toBe(0);
    const { startFakeLlmServer } = await import('../../src/dev/fake-llm/index.js');
    const server = await startFakeLlmServer({});
    try {
      const llm = createLlmClient(
        LlmConfig.parse({
          endpoints: { fake: { baseUrl: server.url, model: 'fake' } },
          roles: { judge: 'fake' },
        }),
        { cache: false, env: {} },
      );
      const outcomes = [];
      for (const workers of [1, 3]) {
        const records: unknown[] = [];
        const { report } = await validateRun(join(work, 'one'), {
          job: defaultJob(),
          llm,
          workers,
          onQuarantine: (record) => records.push(record),
          onSkip: (userId, reason) => records.push({ userId, reason }),
        });
        outcomes.push({ report, records });
      }
      expect(outcomes[1]).toEqual(outcomes[0]);
      const report = outcomes[0]!.report;
      expect(report.judgeMode).toBe('llm:fake');
      expect(report.judges.coherence?.evaluated).toBe(report.totals.users);
      expect(report.rules.chronology).toBeDefined();
    } finally {
      await server.close();
    }
  }, 120_000);
});
