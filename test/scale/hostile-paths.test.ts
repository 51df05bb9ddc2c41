import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PF_BIN, renderTrainScript } from '../../src/scale/slurm/scripts.js';
import { sharedRun } from '../support/shared-run.js';
import { type SlurmCluster, slurmUnavailable, startSlurmCluster, until } from '../support/slurm-cluster.js';

/**
 * Generated Slurm scripts under hostile paths (spaces, quotes, `$()`, backticks, `#`, `%`, `;`),
 * through the shipped binary: bash parses them, every path reaches the command as one word,
 * nothing in a name runs, and a path with a newline is refused. Tools are stubs (a `node` and an
 * `sbatch` that record their arguments); a real local cluster, when there is one, runs them.
 */
const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(repoRoot, 'bin/persona-forge.js');
const HOSTILE = `a b $(touch PWNED) \`touch PWNED2\` 'q' "dq" #h %j ;x`;

let work: string;
let base: string;
let stubs: string;

async function pf(args: string[], cwd: string, env: Record<string, string | undefined> = process.env) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env, maxBuffer: 1 << 26 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Arguments each stub call recorded (one call per line, arguments NUL-separated). */
function calls(file: string): string[][] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n\u0001')
    .filter((c) => c !== '')
    .map((c) => c.split('\u0000').slice(0, -1));
}

function nothingInjected(): void {
  for (const dir of [work, base, path.join(base, 'out')]) {
    for (const name of ['PWNED', 'PWNED2'])
      expect(existsSync(path.join(dir, name)), `${dir}/${name}`).toBe(false);
  }
}

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'pf-hostile-'));
  base = path.join(work, HOSTILE);
  mkdirSync(base, { recursive: true });
  writeFileSync(
    path.join(base, 'small.yaml'),
    `extends: ${path.join(repoRoot, 'pipelines/quickstart.yaml')}\npersonas:\n  train: 4\n  test: 2\n`,
  );
  stubs = path.join(work, 'stubs');
  mkdirSync(stubs);
  // Each stub appends its arguments, NUL-terminated, then a record separator.
  const recorder = (name: string, extra: string) => {
    const file = path.join(stubs, name);
    writeFileSync(
      file,
      `#!/bin/bash\nfor a in "$@"; do printf '%s\\0' "$a" >> "$CALLS_DIR/${name}"; done\nprintf '\\n\\001' >> "$CALLS_DIR/${name}"\n${extra}\n`,
    );
    chmodSync(file, 0o755);
  };
  recorder('node', '');
  recorder('sbatch', 'echo 4242');
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('slurm run under a hostile working directory and --out', () => {
  it('scripts bash accepts; each path arrives as one argument; the printed submit line is quoted; nothing runs', async () => {
    const result = await pf(['slurm', 'run', 'small.yaml', '--out', 'out', '--shards', '2'], base);
    expect(result.code).toBe(0);
    const out = path.join(base, 'out');
    const runScript = path.join(out, 'slurm/run.sbatch');
    const mergeScript = path.join(out, 'slurm/merge.sbatch');
    for (const script of [runScript, mergeScript]) {
      await run('bash', ['-n', script]);
      const text = readFileSync(script, 'utf8');
      // Every #SBATCH line stays one line, and every path in it is quoted.
      for (const line of text
        .split('\n')
        .filter((l) => l.startsWith('#SBATCH --chdir=') || l.startsWith('#SBATCH --output=')))
        expect(line).toMatch(/^#SBATCH --(chdir|output)=".*"$/);
    }
    const callsDir = path.join(work, 'calls-run');
    mkdirSync(callsDir);
    const env = { ...process.env, PATH: `${stubs}:${process.env.PATH}`, CALLS_DIR: callsDir };
    await run('bash', [runScript], { cwd: base, env: { ...env, SLURM_ARRAY_TASK_ID: '1' } });
    await run('bash', [mergeScript], { cwd: base, env });
    const pipeline = path.join(base, 'small.yaml');
    expect(calls(path.join(callsDir, 'node'))).toEqual([
      [PF_BIN, 'run', pipeline, '--out', path.join(out, 'shards/1'), '--shard', 'auto', '--shards', '2'],
      [PF_BIN, 'merge', path.join(out, 'shards/0'), path.join(out, 'shards/1'), '--out', out],
    ]);
    // The hint, pasted into a shell, submits exactly the two scripts.
    const hint = /submit with: (.*)\n/.exec(result.stdout)?.[1];
    expect(hint).toBeDefined();
    await run('bash', ['-c', hint as string], { cwd: base, env });
    expect(calls(path.join(callsDir, 'sbatch'))).toEqual([
      ['--parsable', runScript],
      ['--dependency=afterok:4242', mergeScript],
    ]);
    nothingInjected();
  }, 60_000);

  it('a newline in --out, the pipeline path or the working directory is refused, nothing written', async () => {
    const newline = path.join(work, 'new\nline');
    mkdirSync(newline);
    writeFileSync(path.join(newline, 'small.yaml'), readFileSync(path.join(base, 'small.yaml')));
    for (const [args, cwd] of [
      [['slurm', 'run', path.join(base, 'small.yaml'), '--out', 'x\ntouch PWNED', '--shards', '2'], base],
      [
        ['slurm', 'run', path.join(newline, 'small.yaml'), '--out', path.join(work, 'o1'), '--shards', '2'],
        base,
      ],
      [['slurm', 'run', 'small.yaml', '--out', path.join(work, 'o2'), '--shards', '2'], newline],
    ] as const) {
      const refused = await pf([...args], cwd);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/INPUT_INVALID.*holds a line break/);
    }
    const backslash = await pf(['slurm', 'run', 'small.yaml', '--out', 'back\\slash', '--shards', '2'], base);
    expect(backslash.code).toBe(1);
    expect(backslash.stderr).toMatch(/INPUT_INVALID.*holds a backslash, which turns off Slurm's %j/);
    expect(readdirSync(base).filter((n) => n.startsWith('x') || n.startsWith('back'))).toEqual([]);
    expect(existsSync(path.join(work, 'o1'))).toBe(false);
    expect(existsSync(path.join(work, 'o2'))).toBe(false);
    nothingInjected();
  }, 60_000);

  it('a training script under a hostile folder passes bash -n and runs nothing injected', async () => {
    const script = path.join(work, 'train.sbatch');
    writeFileSync(
      script,
      renderTrainScript({
        recipe: path.join(base, 'sft.yaml'),
        nodes: 2,
        gpusPerNode: 8,
        outputDir: path.join(base, 'output'),
        logDir: path.join(base, 'logs'),
        cwd: base,
      }),
    );
    await run('bash', ['-n', script]);
    expect(() =>
      renderTrainScript({
        recipe: 'a.yaml',
        nodes: 1,
        gpusPerNode: 1,
        outputDir: 'o\nrm -rf x',
        logDir: 'l',
        cwd: base,
      }),
    ).toThrow(/line break/);
    nothingInjected();
  });
});

const skip = slurmUnavailable();
describe.skipIf(skip !== null)(
  `hostile paths on a real local Slurm cluster${skip === null ? '' : ` (skipped: ${skip})`}`,
  () => {
    let cluster: SlurmCluster;
    beforeAll(async () => {
      cluster = await startSlurmCluster({});
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
    }, 60_000);

    it('sbatch reads the quoted --chdir and --output: the jobs run there, log there, and merge to a one-run result', async () => {
      // The uninterrupted run of the same pipeline (shared with other test files; its bytes do not
      // depend on where the pipeline file is).
      const { dir: reference } = await sharedRun('small');
      const out = path.join(base, 'cluster-out');
      const submitted = await pf(
        ['slurm', 'run', 'small.yaml', '--out', out, '--shards', '2', '--submit'],
        base,
        cluster.env,
      );
      expect(submitted.code).toBe(0);
      const jobs = JSON.parse(readFileSync(path.join(out, 'slurm/jobs.json'), 'utf8'));
      const merge = jobs.submissions.find((s: { kind: string }) => s.kind === 'merge').jobId as string;
      const state = () => {
        try {
          const text = execFileSync('scontrol', ['show', 'job', '-o', merge], {
            env: cluster.env,
            encoding: 'utf8',
          });
          return /JobState=(\S+)/.exec(text)?.[1] ?? 'UNKNOWN';
        } catch {
          return 'UNKNOWN';
        }
      };
      await until(() => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(state()), 'the merge job', 200_000);
      const logDir = path.join(out, 'slurm/logs');
      const logText = () =>
        existsSync(logDir)
          ? readdirSync(logDir)
              .map((f) => `${f}:\n${readFileSync(path.join(logDir, f), 'utf8').slice(-1500)}`)
              .join('\n')
          : `no ${logDir}: ${readdirSync(path.join(out, 'slurm')).join(', ')}`;
      expect(state(), logText()).toBe('COMPLETED');
      const logs = readdirSync(path.join(out, 'slurm/logs')).sort();
      expect(logs).toEqual(
        [`merge-${merge}.out`, ...[0, 1].map((i) => `run-${jobs.submissions[0].jobId}_${i}.out`)].sort(),
      );
      for (const file of [
        'plan/plan.jsonl',
        'dialogues/dialogues.jsonl',
        'memory/memory.jsonl',
        'export/sft/train.jsonl',
      ])
        expect(readFileSync(path.join(out, file), 'utf8'), file).toBe(
          readFileSync(path.join(reference, file), 'utf8'),
        );
      nothingInjected();
    }, 300_000);
  },
);

describe('slurm resume', () => {
  it('of scripts never submitted says so; without sbatch on PATH it says that, not "exit unknown"', async () => {
    const out = path.join(work, 'resume');
    expect((await pf(['slurm', 'run', 'small.yaml', '--out', out, '--shards', '2'], base)).code).toBe(0);
    const never = await pf(['slurm', 'resume', out], base);
    expect(never.code).toBe(1);
    expect(never.stderr).toMatch(/written but never submitted .*nothing to resume/);
    expect(never.stderr).toMatch(/hint: submit them first: id=\$\(sbatch --parsable /);
    const jobsFile = path.join(out, 'slurm/jobs.json');
    const jobs = JSON.parse(readFileSync(jobsFile, 'utf8'));
    jobs.submissions.push({ kind: 'run', jobId: '17', array: '0-1', at: '2026-01-01T00:00:00Z' });
    writeFileSync(jobsFile, JSON.stringify(jobs));
    const empty = path.join(work, 'empty-path');
    mkdirSync(empty, { recursive: true });
    const noSlurm = await pf(['slurm', 'resume', out], base, { ...process.env, PATH: empty });
    expect(noSlurm.code).toBe(1);
    expect(noSlurm.stderr).toMatch(
      /sbatch was not found: `sbatch --parsable --array=0,1 .*` could not start/,
    );
    expect(noSlurm.stderr).toMatch(/hint: sbatch comes with the Slurm client tools/);
  }, 60_000);
});
