import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedRun } from '../support/shared-run.js';
import {
  PHANTOM_PARTITION,
  type SlurmCluster,
  slurmUnavailable,
  startSlurmCluster,
  until,
} from '../support/slurm-cluster.js';

/**
 * `persona-forge slurm run|resume`, `status` and `train --slurm` against a real single-host Slurm
 * (munged + slurmctld + slurmd started from a generated slurm.conf in a temp folder), through the
 * shipped binary as README.md *Scale out* shows it.
 */
const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(repoRoot, 'bin/persona-forge.js');
const skip = slurmUnavailable();

let cluster: SlurmCluster;
let work: string;
let pipeline: string;
let reference: string;

function pf(args: string[], cwd = work, env: Record<string, string> = cluster.env) {
  return run(process.execPath, [BIN, ...args], { cwd, env, maxBuffer: 1 << 26 });
}

/** Every data file of a run directory, relative, except the manifest and scheduler folders. */
function dataFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const file = path.join(rel, name);
      if (['.state', 'slurm', 'shards', 'manifest.json', '.pf-lock', 'run.lock'].includes(file)) continue;
      if (statSync(path.join(dir, file)).isDirectory()) walk(file);
      else out.push(file);
    }
  };
  walk('');
  return out.sort();
}

function expectSameData(a: string, b: string): void {
  const files = dataFiles(a);
  expect(dataFiles(b)).toEqual(files);
  for (const file of files) {
    expect(readFileSync(path.join(b, file)).equals(readFileSync(path.join(a, file))), file).toBe(true);
  }
}

async function jobState(id: string): Promise<string> {
  try {
    const out = execFileSync('scontrol', ['show', 'job', '-o', id], { env: cluster.env, encoding: 'utf8' });
    return /JobState=(\S+)/.exec(out)?.[1] ?? 'UNKNOWN';
  } catch {
    return 'UNKNOWN';
  }
}

async function waitComplete(dir: string, mergeJob: () => string): Promise<void> {
  await until(async () => {
    const state = await jobState(mergeJob());
    if (['FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL'].includes(state)) {
      const logs = readdirSync(path.join(dir, 'slurm/logs'))
        .map((f) => `${f}:\n${readFileSync(path.join(dir, 'slurm/logs', f), 'utf8').slice(-2000)}`)
        .join('\n');
      throw new Error(`merge job ${mergeJob()} ended ${state}\n${logs}`);
    }
    return state === 'COMPLETED';
  }, `the merge job of ${dir}`);
}

function jobs(dir: string): { submissions: Array<{ kind: string; jobId: string; array?: string }> } {
  return JSON.parse(readFileSync(path.join(dir, 'slurm/jobs.json'), 'utf8'));
}

/** The environment of a training job on the cluster: the fake swift first on PATH, the reference export. */
function trainEnv(dir: string, extra: Record<string, string>): Record<string, string> {
  return {
    ...cluster.env,
    PATH: `${path.join(repoRoot, 'test/support/fake-swift')}${path.delimiter}${cluster.env.PATH ?? ''}`,
    PF_EXPORT_DIR: path.join(reference, 'export'),
    PF_OUTPUT_ROOT: path.join(dir, 'output'),
    ...extra,
  };
}

describe.skipIf(skip !== null)(
  `Slurm scale-out on a real local cluster${skip === null ? '' : ` (skipped: ${skip})`}`,
  () => {
    beforeAll(async () => {
      cluster = await startSlurmCluster({ phantomNodes: 1 });
      work = mkdtempSync(path.join(tmpdir(), 'pf-slurm-work-'));
      // The offline quickstart (18 users: a shard of 6 still runs every stage for seconds after
      // its first journal line, long enough to be cancelled mid-run) and its uninterrupted run,
      // shared with other test files.
      ({ pipeline, dir: reference } = await sharedRun('quickstart'));
    });

    afterAll(async () => {
      await cluster?.stop();
      if (work !== undefined) rmSync(work, { recursive: true, force: true });
    }, 300_000);

    it('slurm run --shards 3 --submit: a job array, then a merge afterok, ends equal to the unsharded run', async () => {
      const out = path.join(work, 'sharded');
      const { stdout } = await pf(['slurm', 'run', pipeline, '--out', out, '--shards', '3', '--submit']);
      expect(stdout).toMatch(/submitted array job \d+ \(3 shards\)/);
      const runScript = readFileSync(path.join(out, 'slurm/run.sbatch'), 'utf8');
      expect(runScript).toContain('#SBATCH --array=0-2');
      expect(runScript).toContain('--shard auto --shards 3');
      const record = jobs(out);
      const array = record.submissions.find((s) => s.kind === 'run')?.jobId as string;
      const merge = record.submissions.find((s) => s.kind === 'merge')?.jobId as string;
      expect(readFileSync(path.join(out, 'slurm/merge.sbatch'), 'utf8')).toContain(
        `#SBATCH --dependency=afterok:${array}`,
      );
      await waitComplete(out, () => merge);
      expectSameData(reference, out);
      const status = JSON.parse((await pf(['status', out, '--json'])).stdout);
      expect(status.shards.map((s: { status: string }) => s.status)).toEqual([
        'complete',
        'complete',
        'complete',
      ]);
      expect(status.shards.map((s: { job: { id: string; state: string } }) => s.job)).toEqual(
        [0, 1, 2].map((i) => ({ id: `${array}_${i}`, state: 'COMPLETED' })),
      );
      expect(status.totals).toMatchObject({ done: 18, total: 18 });
      expect(status.merge).toEqual({ id: merge, state: 'COMPLETED' });
    }, 300_000);

    it('scancel of one array task mid-run, then slurm resume, gives the same result', async () => {
      const out = path.join(work, 'cancelled');
      await pf(['slurm', 'run', pipeline, '--out', out, '--shards', '3', '--submit']);
      const array = jobs(out).submissions[0]?.jobId as string;
      // cancel shard 1 once it has journaled some users (mid-stage)
      await until(
        () => {
          const state = path.join(out, 'shards/1/.state');
          return existsSync(state) && readdirSync(state).some((f) => f.endsWith('.journal.jsonl'));
        },
        'shard 1 to start',
        120_000,
      );
      execFileSync('scancel', [`${array}_1`], { env: cluster.env });
      await until(async () => (await jobState(`${array}_1`)) === 'CANCELLED', 'the cancel');
      const firstMerge = jobs(out).submissions.find((s) => s.kind === 'merge')?.jobId as string;
      // the merge can never run now; wait until the other tasks have ended
      await until(
        async () =>
          !['PENDING', 'RUNNING'].includes(await jobState(`${array}_0`)) &&
          !['PENDING', 'RUNNING'].includes(await jobState(`${array}_2`)),
        'the other shards',
      );
      const manifest = path.join(out, 'shards/1/manifest.json');
      const shard1 = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).status : 'none';
      expect(shard1).not.toBe('complete');
      const { stdout } = await pf(['slurm', 'resume', out]);
      expect(stdout).toMatch(/resubmitted shards 1 as job \d+/);
      const record = jobs(out);
      const resubmitted = record.submissions.filter((s) => s.kind === 'run').at(-1);
      expect(resubmitted?.array).toBe('1');
      const merge = record.submissions.filter((s) => s.kind === 'merge').at(-1)?.jobId as string;
      expect(merge).not.toBe(firstMerge);
      await waitComplete(out, () => merge);
      expectSameData(reference, out);
    }, 300_000);

    it('train recipes/personavlm-sft.yaml --slurm --submit runs rank 0 on the cluster with the fake swift', async () => {
      const dir = mkdtempSync(path.join(work, 'train-'));
      const env = trainEnv(dir, {
        FAKE_SWIFT_RECORD: path.join(dir, 'swift-calls.jsonl'),
        FAKE_SWIFT_INTERVAL_MS: '20',
        FAKE_SWIFT_STEPS: '4',
      });
      const { stdout } = await pf(
        ['train', path.join(repoRoot, 'recipes/personavlm-sft.yaml'), '--slurm', '--submit'],
        dir,
        env,
      );
      const id = /submitted job (\d+)/.exec(stdout)?.[1] as string;
      expect(id).toBeDefined();
      const script = readFileSync(path.join(dir, 'output/personavlm-sft/slurm/train.sbatch'), 'utf8');
      for (const line of [
        '--nodes=1',
        '--gpus-per-node=8',
        '--ntasks-per-node=1',
        '--requeue',
        '--signal=USR1@120',
      ]) {
        expect(script).toContain(`#SBATCH ${line}`);
      }
      await until(async () => {
        const state = await jobState(id);
        if (['FAILED', 'CANCELLED', 'TIMEOUT'].includes(state)) {
          const log = readdirSync(path.join(dir, 'output/personavlm-sft')).find((f) =>
            f.startsWith('slurm-'),
          );
          throw new Error(
            `train job ${state}: ${log === undefined ? '' : readFileSync(path.join(dir, 'output/personavlm-sft', log), 'utf8').slice(-3000)}`,
          );
        }
        return state === 'COMPLETED';
      }, 'the training job');
      const record = JSON.parse(
        readFileSync(path.join(dir, 'output/personavlm-sft/persona-forge-run.json'), 'utf8'),
      );
      expect(record).toMatchObject({ recipe: 'personavlm-sft', nodeRank: 0 });
      const calls = readFileSync(env.FAKE_SWIFT_RECORD as string, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const sft = calls.find((c) => c.argv[0] === 'sft');
      expect(sft.env).toMatchObject({ NODE_RANK: '0', NNODES: '1', MASTER_ADDR: cluster.node });
    }, 300_000);

    it('USR1 before the time limit: rank 0 requeues the job, which resumes from the newest checkpoint', async () => {
      const dir = mkdtempSync(path.join(work, 'requeue-'));
      const env = trainEnv(dir, {
        FAKE_SWIFT_RECORD: path.join(dir, 'swift-calls.jsonl'),
        FAKE_SWIFT_INTERVAL_MS: '300',
        FAKE_SWIFT_STEPS: '30',
        FAKE_SWIFT_SAVE_EVERY: '2',
      });
      const { stdout } = await pf(
        ['train', path.join(repoRoot, 'recipes/personavlm-sft.yaml'), '--slurm', '--submit'],
        dir,
        env,
      );
      const id = /submitted job (\d+)/.exec(stdout)?.[1] as string;
      const output = path.join(dir, 'output/personavlm-sft');
      await until(
        () =>
          existsSync(output) &&
          readdirSync(output).some(
            (d) =>
              /^v\d+-/.test(d) && readdirSync(path.join(output, d)).some((c) => c.startsWith('checkpoint-')),
          ),
        'a first checkpoint',
      );
      // What Slurm does at --signal=USR1@120: USR1 to every task of the job's steps.
      execFileSync('scancel', ['--signal=USR1', id], { env: cluster.env });
      const jobLog = () =>
        readdirSync(output)
          .filter((f) => f.startsWith('slurm-'))
          .map((f) => readFileSync(path.join(output, f), 'utf8').slice(-3000))
          .join('\n');
      let hurried = 0;
      let pendingSince = 0;
      await until(
        () => {
          const out = execFileSync('scontrol', ['show', 'job', '-o', id], {
            env: cluster.env,
            encoding: 'utf8',
          });
          const restarts = Number(/Restarts=(\d+)/.exec(out)?.[1] ?? 0);
          const state = /JobState=(\S+)/.exec(out)?.[1];
          if (
            restarts === 0 &&
            ['FAILED', 'CANCELLED', 'TIMEOUT', 'COMPLETED', 'NODE_FAIL'].includes(state ?? '')
          ) {
            throw new Error(`the job ended ${state} without being requeued:\n${jobLog()}`);
          }
          if (restarts >= 1 && state === 'PENDING' && pendingSince === 0) pendingSince = Date.now();
          // Once the old run's processes are gone (as Slurm's own BeginTime delay guarantees).
          if (
            restarts >= 1 &&
            state === 'PENDING' &&
            Date.now() - pendingSince > 3000 &&
            Date.now() - hurried > 2000
          ) {
            // Slurm holds a requeued job back (BeginTime) before it may start again; skip the wait
            // (again while it stays pending: an update that lands while the old run is still
            // completing does not hold).
            hurried = Date.now();
            execFileSync('scontrol', ['update', `JobId=${id}`, 'StartTime=now'], { env: cluster.env });
          }
          if (restarts >= 1 && ['FAILED', 'CANCELLED', 'TIMEOUT'].includes(state ?? '')) {
            throw new Error(`the requeued job ended ${state}:\n${jobLog()}`);
          }
          return restarts === 1 && state === 'COMPLETED';
        },
        'the requeued job to finish',
        240_000,
      );
      const calls = readFileSync(env.FAKE_SWIFT_RECORD as string, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const sft = calls.filter((c) => c.argv?.[0] === 'sft');
      expect(sft.length).toBe(2);
      // swift ended on USR1 (as Python does) and the launcher still requeued the job before exiting.
      expect(calls.some((c) => c.signal === 'SIGUSR1')).toBe(true);
      expect(sft[0].argv).not.toContain('--resume_from_checkpoint');
      expect(sft[1].argv).toContain('--resume_from_checkpoint');
    }, 300_000);

    it('train chain --slurm --submit: RL is submitted afterok:<sft> and runs `train chain … --rl-only`', async () => {
      const dir = mkdtempSync(path.join(work, 'chain-'));
      const env = trainEnv(dir, {
        FAKE_SWIFT_HANG: '1',
      });
      const sftRecipe = path.join(repoRoot, 'recipes/personavlm-sft.yaml');
      const rlRecipe = path.join(repoRoot, 'recipes/personavlm-grpo.yaml');
      const { stdout } = await pf(['train', 'chain', sftRecipe, rlRecipe, '--slurm', '--submit'], dir, env);
      const ids = [...stdout.matchAll(/submitted job (\d+)/g)].map((m) => m[1] as string);
      expect(ids).toHaveLength(2);
      const [sftId, rlId] = ids as [string, string];
      expect(stdout).toContain(`submitted job ${rlId} (afterok:${sftId})`);
      const rl = execFileSync('scontrol', ['show', 'job', '-o', rlId], {
        env: cluster.env,
        encoding: 'utf8',
      });
      expect(rl).toMatch(new RegExp(`Dependency=afterok:${sftId}`));
      expect(rl).toMatch(/JobState=PENDING/);
      const script = readFileSync(path.join(dir, 'output/personavlm-grpo/slurm/train.sbatch'), 'utf8');
      expect(script).toContain(`#SBATCH --dependency=afterok:${sftId}`);
      expect(script).toContain(`train chain ${sftRecipe} ${rlRecipe} --rl-only --node-rank "$SLURM_NODEID"`);
      execFileSync('scancel', [sftId, rlId], { env: cluster.env });
      await until(
        async () => !['RUNNING', 'PENDING', 'COMPLETING'].includes(await jobState(sftId)),
        'the cancel',
      );
    }, 300_000);

    it('a 2-node training script passes sbatch --test-only, and its per-node commands equal those of --hosts', async () => {
      const dir = mkdtempSync(path.join(work, 'twonode-'));
      const recipe = path.join(dir, 'sft-2nodes.yaml');
      writeFileSync(
        recipe,
        `extends: ${path.join(repoRoot, 'recipes/personavlm-sft.yaml')}\ndistributed:\n  nodes: 2\n`,
      );
      const env = {
        ...cluster.env,
        PF_EXPORT_DIR: path.join(reference, 'export'),
        PF_OUTPUT_ROOT: path.join(dir, 'output'),
      };
      await pf(['train', recipe, '--slurm'], dir, env);
      const script = path.join(dir, 'output/personavlm-sft/slurm/train.sbatch');
      const text = readFileSync(script, 'utf8');
      expect(text).toContain('#SBATCH --nodes=2');
      const test = await run('sbatch', ['--test-only', `--partition=${PHANTOM_PARTITION}`, script], {
        env,
        cwd: dir,
      }).catch((e: { stderr: string }) => ({ stdout: '', stderr: e.stderr }));
      expect(test.stderr).toMatch(/Job \d+ to start at \S+ using \d+ processors on nodes \w+,\w+ /);
      // Evaluate the script's per-node command (the srun body) for each rank, as a dry run.
      const body = /bash -c \\\n {2}'([^\n]*)'\n/.exec(text)?.[1];
      expect(body).toBeDefined();
      const hosts = path.join(dir, 'hosts');
      writeFileSync(hosts, 'gpu01 slots=8\ngpu02 slots=8\n');
      const viaHosts = (
        await pf(['train', recipe, '--hosts', hosts], dir, env).catch((e: { stdout: string }) => e)
      ).stdout as string;
      const nodeBlock = (textOut: string, rank: number) =>
        (
          new RegExp(`## node ${rank}[^\\n]*\\n([\\s\\S]*?)\\n(?:# over ssh|\\n)`).exec(textOut)?.[1] ?? ''
        ).trim();
      for (const rank of [0, 1]) {
        const out = await run('bash', ['-c', body as string], {
          cwd: dir,
          env: { ...env, SLURM_NODEID: String(rank), MASTER_ADDR: 'gpu01', RESUME: '--dry-run' },
        }).catch((e: { stdout: string }) => e);
        const slurmBlock = nodeBlock(out.stdout as string, rank);
        expect(slurmBlock).toContain('swift sft');
        expect(slurmBlock).toBe(nodeBlock(viaHosts, rank));
      }
    }, 300_000);
  },
);
