import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { BIN, runCli } from '../support/cli.js';
import { fakeModelArgs } from '../support/fake-llm.js';
import { copySharedRun, sharedRun } from '../support/shared-run.js';

/** Output folders through the shipped binary: never a user's files swept, never a lock left behind. */
let work: string;
let small: string;
let reference: string;

const DATA = [
  'plan/plan.jsonl',
  'dialogues/dialogues.jsonl',
  'memory/memory.jsonl',
  'export/sft/train.jsonl',
];
async function data(dir: string): Promise<string[]> {
  return Promise.all(DATA.map((rel) => readFile(join(dir, rel), 'utf8').catch(() => '<missing>')));
}
/** Every file under `dir` with its text. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (path: string) => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[relative(dir, full)] = await readFile(full, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-safe-dirs-'));
  // The quickstart with 4 + 2 users and its uninterrupted run, shared with other test files.
  ({ pipeline: small, dir: reference } = await sharedRun('small'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('--out into a folder that is not a persona-forge run', () => {
  it('is refused with every file intact; --force adopts it and leaves what the run does not write', async () => {
    const out = join(work, 'my-project');
    await mkdir(join(out, 'export'), { recursive: true });
    await mkdir(join(out, 'notes'), { recursive: true });
    await writeFile(join(out, 'manifest.json'), '{"name": "my own manifest"}\n');
    await writeFile(join(out, 'report.html'), '<p>my report</p>\n');
    await writeFile(join(out, 'validation.json'), '{"mine": true}\n');
    await writeFile(join(out, 'export/results.csv'), 'a,b\n1,2\n');
    await writeFile(join(out, 'notes/.draft.tmp'), 'half-written notes\n');
    await writeFile(join(out, 'notes/todo.md'), '- keep me\n');
    const before = await tree(out);
    for (const command of [
      ['run', small, '--out', out],
      ['plan', small, '--out', out],
      ['merge', reference, '--out', out],
    ]) {
      const refused = await runCli(work, command);
      expect(refused.code, command.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(
        /OUT_DIR_NOT_A_RUN.*my-project is not empty and is not a persona-forge run/,
      );
      expect(refused.stderr).toMatch(/--force/);
      expect(await tree(out)).toEqual(before);
    }
    const adopted = await runCli(work, ['run', small, '--out', out, '--force', '--quiet']);
    expect(adopted.code).toBe(0);
    const after = await tree(out);
    // What the run does not write is untouched (the temp-file sweep included).
    expect(after['notes/.draft.tmp']).toBe('half-written notes\n');
    expect(after['notes/todo.md']).toBe('- keep me\n');
    expect(await data(out)).toEqual(await data(reference));
    // Now it is a run: the same command needs no --force.
    expect((await runCli(work, ['run', small, '--out', out, '--quiet'])).code).toBe(0);
  }, 300_000);

  it('an empty folder, a missing one and a run folder need no --force', async () => {
    const empty = join(work, 'empty');
    await mkdir(empty);
    expect((await runCli(work, ['plan', small, '--out', empty, '--quiet'])).code).toBe(0);
    expect((await runCli(work, ['run', small, '--out', empty, '--quiet'])).code).toBe(0);
    expect(await data(empty)).toEqual(await data(reference));
  }, 300_000);
});

describe('the run lock', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} mid-run releases it; the same command resumes to the same data`, async () => {
      const server = await startFakeLlmServer({ latencyMs: 40 });
      try {
        const out = join(work, `signal-${signal}`);
        const args = ['run', small, '--out', out, ...fakeModelArgs(server.url), '--quiet'];
        const clean = join(work, `signal-${signal}-clean`);
        expect(
          (
            await runCli(
              work,
              args.map((a) => (a === out ? clean : a)),
            )
          ).code,
        ).toBe(0);
        // Its own folder, so its answer cache (`.pf-cache/llm`) is empty and it really calls the model.
        const there = join(work, `signal-${signal}-cwd`);
        await mkdir(there, { recursive: true });
        const child = spawn(process.execPath, [BIN, ...args], { cwd: there, stdio: 'ignore' });
        const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
        // Wait until it holds the lock and has done some work.
        for (let i = 0; i < 400; i++) {
          if (
            (await readFile(join(out, '.pf-lock'), 'utf8').catch(() => '')) !== '' &&
            server.stats.requests > 0
          )
            break;
          await new Promise((r) => setTimeout(r, 25));
        }
        await new Promise((r) => setTimeout(r, 300));
        child.kill(signal);
        expect(await exited).toBe(signal === 'SIGTERM' ? 143 : 130);
        await expect(readFile(join(out, '.pf-lock'))).rejects.toThrow();
        expect((await runCli(there, args)).code).toBe(0);
        expect(await data(out)).toEqual(await data(clean));
      } finally {
        await server.close();
      }
    }, 300_000);
  }

  it('a lock from another host is judged by its heartbeat: fresh refuses, expired is taken over', async () => {
    const out = join(work, 'lease');
    await copySharedRun('small', out);
    const lock = (heartbeatAt: string) =>
      writeFile(
        join(out, '.pf-lock'),
        JSON.stringify({
          pid: 1,
          host: 'gpu-node-17',
          startedAt: '2026-01-01T00:00:00Z',
          heartbeatAt,
          command: 'run',
        }),
      );
    await lock(new Date().toISOString());
    const refused = await runCli(work, ['report', out, '--quiet']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/RUN_LOCKED.*pid 1 on gpu-node-17/);
    // pid 1 is alive on this host, but it is another host's pid: only the heartbeat counts.
    await lock(new Date(Date.now() - 60 * 60 * 1000).toISOString());
    expect((await runCli(work, ['report', out, '--quiet'])).code).toBe(0);
    await expect(readFile(join(out, '.pf-lock'))).rejects.toThrow();
  }, 300_000);
});

describe('merge checks shard files against their recorded sha256', () => {
  it('an edited or truncated shard file is MERGE_INVALID naming it; restored, the merge equals one run', async () => {
    const s0 = join(work, 'm-s0');
    const s1 = join(work, 'm-s1');
    expect((await runCli(work, ['run', small, '--out', s0, '--shard', '0/2', '--quiet'])).code).toBe(0);
    expect((await runCli(work, ['run', small, '--out', s1, '--shard', '1/2', '--quiet'])).code).toBe(0);
    const dialogues = join(s1, 'dialogues/dialogues.jsonl');
    const plan = join(s0, 'plan/plan.jsonl');
    const original = { dialogues: await readFile(dialogues, 'utf8'), plan: await readFile(plan, 'utf8') };
    // An edit that keeps every line valid JSON of the right shape.
    const edited = original.dialogues.replace(
      /"text":"([A-Za-z])/,
      (_, c: string) => `"text":"${c === 'I' ? 'X' : 'I'}`,
    );
    expect(edited).not.toBe(original.dialogues);
    await writeFile(dialogues, edited);
    const tampered = await runCli(work, ['merge', s0, s1, '--out', join(work, 'm-tampered')]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(
      /MERGE_INVALID.*m-s1\/dialogues\/dialogues\.jsonl does not match the sha256/,
    );
    await writeFile(dialogues, original.dialogues);
    const lines = original.plan.trimEnd().split('\n');
    await writeFile(plan, `${lines.slice(0, -1).join('\n')}\n`);
    const truncated = await runCli(work, ['merge', s0, s1, '--out', join(work, 'm-truncated')]);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/MERGE_INVALID.*m-s0\/plan\/plan\.jsonl does not match the sha256/);
    await writeFile(plan, original.plan);
    const merged = join(work, 'm-merged');
    expect((await runCli(work, ['merge', s0, s1, '--out', merged, '--quiet'])).code).toBe(0);
    expect(await data(merged)).toEqual(await data(reference));
  }, 300_000);
});
