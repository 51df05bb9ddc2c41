import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeUserMemoryRecord } from '../../src/schemas/memory-record-codec.js';
import { runCli } from '../support/cli.js';
import { fakeModelArgs } from '../support/fake-llm.js';
import { runDataText } from '../support/run-data.js';
import { copySharedRun, sharedRun } from '../support/shared-run.js';

/** Run-directory integrity through the shipped binary: locks, merge checks, verified resume, damaged journals. */
const repoRoot = resolve(import.meta.dirname, '../..');
const BIN = join(repoRoot, 'bin/persona-forge.js');
const exec = promisify(execFile);
let work: string;
let small: string;
let reference: string;

const pf = (args: string[], env?: Record<string, string | undefined>) => runCli(work, args, env);

const data = (dir: string) => runDataText(dir);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-integrity-'));
  // The quickstart with 4 + 2 users and its uninterrupted run, shared with other test files.
  ({ pipeline: small, dir: reference } = await sharedRun('small'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('one writer per run directory', () => {
  it('a second concurrent run is refused with RUN_LOCKED; the first finishes intact', async () => {
    const out = join(work, 'concurrent');
    const first = spawn(process.execPath, [BIN, 'run', small, '--out', out, '--quiet'], {
      cwd: work,
      stdio: 'ignore',
    });
    const firstDone = new Promise<number | null>((done) => first.on('exit', done));
    // wait until the first holds the lock
    for (let i = 0; i < 200; i++) {
      if (await readFile(join(out, '.pf-lock'), 'utf8').catch(() => null)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const second = await pf(['run', small, '--out', out, '--quiet']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/RUN_LOCKED.*being written by another persona-forge \(run .*pid \d+ on /);
    expect(await firstDone).toBe(0);
    expect(await data(out)).toEqual(await data(reference));
    await expect(readFile(join(out, '.pf-lock'))).rejects.toThrow();
  }, 300_000);

  it('a lock left by a process that died on this host is stale and taken over', async () => {
    const out = join(work, 'stale-lock');
    await copySharedRun('small', out);
    await writeFile(
      join(out, '.pf-lock'),
      JSON.stringify({
        pid: 2 ** 22 + 12345,
        host: hostname(),
        startedAt: '2026-01-01T00:00:00Z',
        command: 'run',
      }),
    );
    expect((await pf(['report', out, '--quiet'])).code).toBe(0);
  }, 300_000);
});

describe('merge checks every shard', () => {
  it('refuses a shard named twice, a missing shard and an unfinished shard', async () => {
    const s0 = join(work, 's0');
    const s1 = join(work, 's1');
    expect((await pf(['run', small, '--out', s0, '--shard', '0/2', '--quiet'])).code).toBe(0);
    expect((await pf(['run', small, '--out', s1, '--shard', '1/2', '--quiet'])).code).toBe(0);
    const twice = await pf(['merge', s0, s0, s1, '--out', join(work, 'm-twice')]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/MERGE_INVALID.*both shard 0\/2/);
    const missing = await pf(['merge', s0, '--out', join(work, 'm-missing')]);
    expect(missing.stderr).toMatch(/MERGE_INVALID.*shards 1\/2 are missing/);
    const manifest = JSON.parse(await readFile(join(s1, 'manifest.json'), 'utf8'));
    await writeFile(join(s1, 'manifest.json'), JSON.stringify({ ...manifest, status: 'stopped' }));
    const unfinished = await pf(['merge', s0, s1, '--out', join(work, 'm-unfinished')]);
    expect(unfinished.stderr).toMatch(/MERGE_INVALID.*is not complete \(status stopped\)/);
    await writeFile(join(s1, 'manifest.json'), JSON.stringify(manifest));
    // Merging again into a used directory reruns the whole-corpus stages.
    const merged = join(work, 'merged');
    expect((await pf(['merge', s0, s1, '--out', merged, '--quiet'])).code).toBe(0);
    await writeFile(join(merged, 'validation.json'), '{"stale": true}\n');
    expect((await pf(['merge', s0, s1, '--out', merged, '--quiet'])).code).toBe(0);
    expect(await data(merged)).toEqual(await data(reference));
  }, 300_000);
});

describe('resume trusts files, not markers', () => {
  it('a truncated or deleted output is found and rebuilt', async () => {
    const out = join(work, 'damaged');
    await copySharedRun('small', out);
    await truncate(join(out, 'memory/memory.jsonl'), 1000);
    await unlink(join(out, 'export/sft/train.jsonl'));
    expect((await pf(['run', small, '--out', out, '--quiet'])).code).toBe(0);
    expect(await data(out)).toEqual(await data(reference));
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    const want = JSON.parse(await readFile(join(reference, 'manifest.json'), 'utf8'));
    expect(manifest.files).toEqual(want.files);
  }, 300_000);

  it('a damaged journal record is processed again, never copied into the output', async () => {
    const out = join(work, 'journal');
    // plan only, then a synth journal as an interrupted run would leave it, with two damaged lines
    expect((await pf(['plan', small, '--out', out, '--quiet'])).code).toBe(0);
    await copyFile(join(reference, '.state/synth.fingerprint'), join(out, '.state/synth.fingerprint'));
    const dialogues = (await readFile(join(reference, 'dialogues/dialogues.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    const entry = (line: string) =>
      `{"userId":${JSON.stringify(JSON.parse(line).userId)},"ok":true,"record":${line}}`;
    const lines = [
      entry(dialogues[0] as string),
      entry(dialogues[1] as string).replace('"sessions":', '"sessionz":'), // parses, wrong schema
      entry(dialogues[2] as string)
        .slice(0, -40)
        .concat('}'), // does not parse
      entry(dialogues[3] as string),
    ];
    await writeFile(join(out, '.state/synth.journal.jsonl'), `${lines.join('\n')}\n`);
    expect((await pf(['run', small, '--out', out, '--quiet'])).code).toBe(0);
    expect(await data(out)).toEqual(await data(reference));
  }, 300_000);
});

/**
 * A teacher that always answers semantic writes beside the schema (in the session answer, which
 * then fails as a whole, and asked again per trace); every other prompt gets the fake model.
 */
const brokenTeacher = (request: { body: Record<string, unknown> }) => {
  const format = request.body.response_format as { json_schema?: { name?: string } } | undefined;
  const name = format?.json_schema?.name;
  if (name === 'memory_session') return { turns: [{ i: 0, semantic_write: { decision: 'maybe' } }] };
  return name === 'semantic_write' ? { decision: 'maybe' } : undefined;
};

describe('LLM faults never become silent gaps', () => {
  it('a dead endpoint stops the run at its probe (exit 1, URL and model named, nothing written); the same command, once it is up, completes', async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const out = join(work, 'dead-endpoint');
    // The same command twice: nothing listens on the port the first time. Its own seed: the
    // answer cache in this folder is shared with the other tests.
    const command = [
      'run',
      small,
      '--out',
      out,
      ...fakeModelArgs(`http://127.0.0.1:${port}/v1`),
      '--seed',
      '5',
    ];
    const dead = await pf(command);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toContain(`probe of http://127.0.0.1:${port}/v1 (model fake) failed`);
    // Stopped before any model call: no user was tried, nothing was written.
    expect(await readFile(join(out, 'manifest.json'), 'utf8').catch(() => null)).toBeNull();
    const { startFakeLlmServer } = await import('../../src/dev/fake-llm/index.js');
    const live = await startFakeLlmServer({ port });
    try {
      expect((await pf([...command, '--quiet'])).code).toBe(0);
      expect(await readFile(join(out, 'quarantine.jsonl'), 'utf8')).toBe('');
      expect((await readFile(join(out, 'plan/plan.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(6);
    } finally {
      await live.close();
    }
  }, 300_000);

  it('a teacher that never answers validly quarantines the user with a retryable code; the next run clears it', async () => {
    const { startFakeLlmServer } = await import('../../src/dev/fake-llm/index.js');
    const broken = await startFakeLlmServer({ respond: brokenTeacher });
    const healthy = await startFakeLlmServer({});
    try {
      const out = join(work, 'teacher');
      const args = (url: string) => ['run', small, '--out', out, ...fakeModelArgs(url)];
      const first = await pf(args(broken.url));
      expect(first.code).toBe(3);
      expect(first.stderr).toMatch(/no records left after memory/);
      const quarantine = (await readFile(join(out, 'quarantine.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(quarantine).toHaveLength(6);
      for (const record of quarantine) {
        expect(record).toMatchObject({ stage: 'memory', code: 'LLM_SCHEMA_MISMATCH' });
        expect(record.reason).toMatch(/teacher gave no valid answer .*semantic_write/);
      }
      // The endpoint is fixed: the same command retries those users and ends complete.
      const clean = join(work, 'teacher-clean');
      expect((await pf(['run', small, '--out', clean, ...fakeModelArgs(healthy.url), '--quiet'])).code).toBe(
        0,
      );
      expect((await pf([...args(healthy.url), '--quiet'])).code).toBe(0);
      expect(await readFile(join(out, 'quarantine.jsonl'), 'utf8')).toBe('');
      const memory = (await readFile(join(out, 'memory/memory.jsonl'), 'utf8')).trim().split('\n');
      expect(memory).toHaveLength(6);
      expect(memory.every(everyTraceHasTeacher)).toBe(true);
    } finally {
      await broken.close();
      await healthy.close();
    }
  }, 300_000);

  it('with memory.teacherOnFailure: fail, a teacher without a valid answer stops the run (exit 1, named), and the fixed endpoint resumes it', async () => {
    const { startFakeLlmServer } = await import('../../src/dev/fake-llm/index.js');
    const broken = await startFakeLlmServer({ respond: brokenTeacher });
    const healthy = await startFakeLlmServer({});
    try {
      const strict = join(work, 'strict-teacher.yaml');
      await writeFile(strict, `extends: ${small}\nmemory:\n  teacherOnFailure: fail\n`);
      const out = join(work, 'teacher-fail');
      const args = (url: string) => ['run', strict, '--out', out, ...fakeModelArgs(url), '--seed', '9'];
      const stopped = await pf(args(broken.url));
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toMatch(/user \S+: the teacher gave no valid answer .*semantic_write/);
      expect(stopped.stderr).toMatch(/teacherOnFailure is "fail"/);
      expect(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')).status).not.toBe('complete');
      const resumed = await pf([...args(healthy.url), '--quiet']);
      expect(resumed.code).toBe(0);
      expect((await readFile(join(out, 'memory/memory.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(6);
    } finally {
      await broken.close();
      await healthy.close();
    }
  }, 300_000);
});

describe('every LLM fault profile', () => {
  it('20% of calls faulty (429, 500, cut and non-JSON bodies, schema-invalid answers): the same users as a clean run, or retryable quarantines the next run clears', async () => {
    const { startFakeLlmServer } = await import('../../src/dev/fake-llm/index.js');
    const faulty = await startFakeLlmServer({
      faults: {
        rate: 0.2,
        seed: 4,
        kinds: ['429', '500', 'truncated', 'non-json', 'schema-invalid'],
        retryAfterMs: 10,
      },
    });
    const healthy = await startFakeLlmServer({});
    try {
      const cleanOut = join(work, 'faults-clean');
      const out = join(work, 'faults');
      const args = (url: string, dir: string) => [
        'run',
        small,
        '--out',
        dir,
        ...fakeModelArgs(url),
        '--seed',
        '13',
        '--quiet',
      ];
      // Faulty first: the answer cache of this folder then holds only valid answers, none of them yet.
      const first = await pf(args(faulty.url, out));
      expect([0, 3]).toContain(first.code);
      const counted = Object.values(faulty.stats.faults).reduce((sum, n) => sum + n, 0);
      expect(counted).toBeGreaterThan(20);
      const lines = async (dir: string, file: string) =>
        (await readFile(join(dir, file), 'utf8')).split('\n').filter((l) => l !== '');
      const quarantine = (await lines(out, 'quarantine.jsonl')).map((l) => JSON.parse(l));
      // What the model stages lost, they lost with a code the next run retries (validate's rule
      // quarantines carry the rule instead).
      for (const record of quarantine.filter((q) => ['plan', 'synth', 'memory'].includes(q.stage)))
        expect(['LLM_CALL_FAILED', 'LLM_SCHEMA_MISMATCH', 'SYNTH_FAILED']).toContain(record.code);
      // Every user is in the output or in quarantine (per stage), never silently missing.
      const memory = first.code === 0 ? await lines(out, 'memory/memory.jsonl') : [];
      const lost = quarantine.filter((q) => ['plan', 'synth', 'memory'].includes(q.stage)).length;
      expect(memory.length + lost).toBe(6);
      expect(memory.every(everyTraceHasTeacher)).toBe(true);
      // The endpoint is healthy again: the same command ends with what a clean run has.
      expect((await pf(args(healthy.url, out))).code).toBe(0);
      expect((await pf(args(healthy.url, cleanOut))).code).toBe(0);
      expect(await lines(out, 'quarantine.jsonl')).toEqual([]);
      for (const file of ['plan/plan.jsonl', 'dialogues/dialogues.jsonl', 'memory/memory.jsonl'])
        expect((await lines(out, file)).length, file).toBe((await lines(cleanOut, file)).length);
    } finally {
      await faulty.close();
      await healthy.close();
    }
  }, 300_000);
});

describe('a full disk', () => {
  const quickstart = join(repoRoot, 'pipelines/quickstart.yaml');
  let whole: string;
  beforeAll(async () => {
    ({ dir: whole } = await sharedRun('quickstart'));
  });

  it.each([1, 3, 6])(
    'on a %i MB tmpfs: DISK_FULL naming the file, then enlarged + resumed = an uninterrupted run',
    async (mb) => {
      const mount = join(work, `tmpfs-${mb}`);
      await exec('mkdir', ['-p', mount]);
      const mounted = await exec('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', mount]).then(
        () => true,
        () => false,
      );
      if (!mounted) {
        console.warn(`skipped: mounting a tmpfs is not permitted here (needs root)`);
        return;
      }
      try {
        const out = join(mount, 'run');
        const first = await pf(['run', quickstart, '--out', out, '--quiet']);
        expect(first.code).toBe(1);
        expect(first.stderr).toMatch(
          /DISK_FULL.*cannot write .*run\/.*no space left on the device \(\d+\.\d MiB free\)/,
        );
        expect(first.stderr).not.toMatch(/\n\s+at /);
        await exec('mount', ['-o', 'remount,size=200m', mount]);
        expect((await pf(['run', quickstart, '--out', out, '--quiet'])).code).toBe(0);
        expect(await data(out)).toEqual(await data(whole));
      } finally {
        await exec('umount', [mount]).catch(() => {});
      }
    },
    300_000,
  );
});

/** A stored memory line (packed: its traces are not plain text) whose every trace has a teacher target. */
function everyTraceHasTeacher(line: string): boolean {
  const record = decodeUserMemoryRecord(JSON.parse(line) as Record<string, unknown>) as {
    traces: Array<{ teacher: unknown }>;
  };
  return record.traces.every((trace) => trace.teacher !== null);
}
