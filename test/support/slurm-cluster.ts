import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real single-host Slurm cluster (munged + slurmctld + slurmd) living entirely in a temp folder:
 * generated slurm.conf/gres.conf, its own munge key and socket, state, spool, logs and pid files.
 * Needs Debian's `slurm-wlm` and `munge` and root (`.ci/run` installs them); `why()` says what is
 * missing so tests can skip with a reason. `stop()` kills the daemons by PID and removes the folder.
 */
export interface SlurmCluster {
  dir: string;
  conf: string;
  node: string;
  /** This process's environment plus `SLURM_CONF`. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const BINARIES = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'scancel'];

function which(bin: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/sbin'])) {
    if (existsSync(path.join(dir, bin))) return true;
  }
  return false;
}

/** Why a local cluster cannot start here, or null when it can. */
export function slurmUnavailable(): string | null {
  if (process.platform !== 'linux') return 'Slurm tests need Linux';
  if (process.getuid?.() !== 0) return 'Slurm tests start slurmd, which needs root';
  const missing = BINARIES.filter((b) => !which(b));
  if (missing.length > 0) {
    return `Slurm is not installed (missing ${missing.join(', ')}): apt-get install slurm-wlm munge`;
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

function bin(name: string): string {
  for (const dir of ['/usr/sbin', '/sbin', ...(process.env.PATH ?? '').split(path.delimiter)]) {
    const file = path.join(dir, name);
    if (existsSync(file)) return file;
  }
  return name;
}

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Options of {@link startSlurmCluster}. */
export interface StartOptions {
  /** Extra nodes declared in slurm.conf but never started (for `--test-only` of multi-node jobs). */
  phantomNodes?: number;
  gpus?: number;
}

/** The partition that includes the phantom nodes. */
export const PHANTOM_PARTITION = 'multinode';

export function slurmConf(dir: string, node: string, ports: [number, number], options: StartOptions): string {
  const gpus = options.gpus ?? 8;
  const phantoms = options.phantomNodes ?? 0;
  const nodes = [`NodeName=${node} NodeAddr=127.0.0.1 CPUs=2 RealMemory=2000 Gres=gpu:${gpus} State=UNKNOWN`];
  if (phantoms > 0) {
    nodes.push(
      `NodeName=pfphantom[1-${phantoms}] NodeAddr=127.0.0.2 CPUs=2 RealMemory=2000 Gres=gpu:${gpus} State=UNKNOWN`,
    );
  }
  return `${[
    'ClusterName=pftest',
    `SlurmctldHost=${node}(127.0.0.1)`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    `AuthInfo=socket=${dir}/munge.sock`,
    'CredType=cred/munge',
    `StateSaveLocation=${dir}/state`,
    `SlurmdSpoolDir=${dir}/spool`,
    `SlurmctldPidFile=${dir}/slurmctld.pid`,
    `SlurmdPidFile=${dir}/slurmd.pid`,
    `SlurmctldLogFile=${dir}/slurmctld.log`,
    `SlurmdLogFile=${dir}/slurmd.log`,
    `SlurmctldPort=${ports[0]}`,
    `SlurmdPort=${ports[1]}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SchedulerType=sched/backfill',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_Core',
    'ReturnToService=2',
    'MpiDefault=none',
    'JobCompType=jobcomp/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'SchedulerParameters=defer_batch',
    'MinJobAge=600',
    'GresTypes=gpu',
    ...nodes,
    `PartitionName=debug Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
    // Phantom nodes never run a slurmd: they live in their own partition, for `--test-only`.
    ...(phantoms > 0
      ? [
          `PartitionName=${PHANTOM_PARTITION} Nodes=${node},pfphantom[1-${phantoms}] Default=NO MaxTime=INFINITE State=UP`,
        ]
      : []),
  ].join('\n')}\n`;
}

/** Starts munged, slurmctld and slurmd in a new temp folder; resolves when the node is idle. */
export async function startSlurmCluster(options: StartOptions = {}): Promise<SlurmCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-slurm-'));
  chmodSync(dir, 0o755);
  const node = hostname().split('.')[0] as string;
  const children: ChildProcess[] = [];
  const env: Record<string, string> = {
    ...(Object.fromEntries(Object.entries(process.env).filter((e) => e[1] !== undefined)) as Record<
      string,
      string
    >),
    SLURM_CONF: path.join(dir, 'slurm.conf'),
  };
  const pidFiles = ['munged.pid', 'slurmctld.pid', 'slurmd.pid'].map((f) => path.join(dir, f));
  const stop = async () => {
    for (const file of pidFiles.reverse()) {
      try {
        process.kill(Number(readFileSync(file, 'utf8').trim()), 'SIGTERM');
      } catch {
        // not running
      }
    }
    for (const child of children)
      if (child.exitCode === null && child.pid !== undefined) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    mkdirSync(path.join(dir, 'state'));
    mkdirSync(path.join(dir, 'spool'));
    const key = path.join(dir, 'munge.key');
    writeFileSync(key, randomBytes(1024));
    chmodSync(key, 0o400);
    const gpus = options.gpus ?? 8;
    for (let i = 0; i < gpus; i++) execFileSync('mknod', [path.join(dir, `gpu${i}`), 'c', '1', '3']);
    writeFileSync(path.join(dir, 'gres.conf'), `AutoDetect=off\nName=gpu File=${dir}/gpu[0-${gpus - 1}]\n`);
    const ports: [number, number] = [await freePort(), await freePort()];
    writeFileSync(path.join(dir, 'slurm.conf'), slurmConf(dir, node, ports, options));
    const start = (file: string, args: string[]) => {
      const child = spawn(bin(file), args, { env, stdio: ['ignore', 'ignore', 'ignore'] });
      children.push(child);
    };
    start('munged', [
      '-F',
      '-f',
      `--key-file=${key}`,
      `--socket=${dir}/munge.sock`,
      `--pid-file=${dir}/munged.pid`,
      `--log-file=${dir}/munged.log`,
      `--seed-file=${dir}/munged.seed`,
    ]);
    await waitFor(() => existsSync(path.join(dir, 'munge.sock')), 'munged');
    start('slurmctld', ['-D', '-i', '-f', path.join(dir, 'slurm.conf')]);
    await waitFor(() => existsSync(path.join(dir, 'slurmctld.pid')), 'slurmctld');
    start('slurmd', ['-D', '-f', path.join(dir, 'slurm.conf')]);
    await waitFor(() => {
      try {
        const out = execFileSync('sinfo', ['-h', '-n', node, '-o', '%t'], { env, encoding: 'utf8' });
        return out.trim() === 'idle';
      } catch {
        return false;
      }
    }, `node ${node} to become idle`);
  } catch (error) {
    const logs = ['slurmctld.log', 'slurmd.log']
      .map((f) => (existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), 'utf8').slice(-1500) : ''))
      .join('\n');
    await stop();
    throw new Error(`${(error as Error).message}\n${logs}`);
  }
  return { dir, conf: path.join(dir, 'slurm.conf'), node, env, stop };
}

/** Polls until `check` is true (for jobs). */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 120_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}
