import { rmSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PersonaForgeError } from '../errors/index.js';
import { tempPathFor } from '../util/fs.js';

/** Who holds a run directory. */
export interface RunLockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  /** Renewed while the holder runs: a lock from another host is judged by it (its pid means nothing here). */
  heartbeatAt?: string;
}

/**
 * How long a lock from another host stays valid after its last heartbeat (renewed every quarter
 * of it). `PERSONA_FORGE_LOCK_LEASE_SECONDS` overrides it. @default 120
 */
function leaseMs(): number {
  const seconds = Number(process.env.PERSONA_FORGE_LOCK_LEASE_SECONDS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 120) * 1000;
}

const LOCK_FILE = '.pf-lock';
/** Locks this process holds, with a count (a merge runs the pipeline inside its own lock). */
const held = new Map<string, number>();
/** The heartbeat timer of each held lock, and the renewal in flight (release waits for it). */
const beats = new Map<string, { timer: NodeJS.Timeout; renewing: Promise<void> }>();

/** Removes every lock this process holds, synchronously (for exit and signal handlers). */
function releaseAllSync(): void {
  for (const file of held.keys()) rmSync(file, { force: true });
  held.clear();
  for (const beat of beats.values()) clearInterval(beat.timer);
  beats.clear();
}

let handlersInstalled = false;
/**
 * A run stopped by SIGTERM (Slurm requeues, `kill`) or SIGINT (Ctrl-C) leaves no lock behind: the
 * locks go on exit. When nothing else listens for the signal, the locks go at once and the signal
 * is raised again with this listener removed, so the process ends as it would have without it
 * (the library never decides an exit code). Another listener (the CLI's graceful stop) keeps the
 * process running until it exits, and the locks go then.
 */
function installSignalRelease(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', releaseAllSync);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const handler = () => {
      if (process.listenerCount(signal) > 1) return;
      releaseAllSync();
      process.off(signal, handler);
      process.kill(process.pid, signal);
    };
    process.on(signal, handler);
  }
}

/** Rewrites the lock with a fresh heartbeat (atomically), as long as it is still this process's. */
async function heartbeat(file: string, me: RunLockHolder): Promise<void> {
  try {
    const now = JSON.parse(await readFile(file, 'utf8')) as RunLockHolder;
    if (now.pid !== me.pid || now.host !== me.host || now.startedAt !== me.startedAt) return;
    const temp = tempPathFor(file);
    await writeFile(temp, `${JSON.stringify({ ...me, heartbeatAt: new Date().toISOString() })}\n`);
    if (held.has(file)) await rename(temp, file);
    else await rm(temp, { force: true });
  } catch {
    // the lock is gone (released) or unreadable for a moment: the next beat tries again
  }
}

/** Whether a lock file's holder still holds it: alive on this host, or a fresh heartbeat elsewhere. */
function holds(holder: RunLockHolder, me: RunLockHolder): boolean {
  if (holder.host === me.host) return alive(holder.pid);
  const last = Date.parse(holder.heartbeatAt ?? holder.startedAt);
  return Number.isFinite(last) && Date.now() - last < leaseMs();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the run directory's lock (`<dir>/.pf-lock`: pid, host, start time, command), created
 * exclusively so two writers can never both hold it, and renewed (heartbeat) while held. A lock
 * left by a process that died on this host (kill -9, a crash) is stale and taken over, and so is
 * one from another host whose heartbeat is older than the lease; a live holder makes this a
 * `RUN_LOCKED` error naming it. SIGTERM and SIGINT release it. Returns the release function.
 *
 * @example const release = await acquireRunLock('out/q', 'run'); try { … } finally { await release(); }
 */
export async function acquireRunLock(runDir: string, command: string): Promise<() => Promise<void>> {
  const file = join(runDir, LOCK_FILE);
  const count = held.get(file) ?? 0;
  const release = async () => {
    const left = (held.get(file) ?? 1) - 1;
    if (left > 0) {
      held.set(file, left);
      return;
    }
    held.delete(file);
    const beat = beats.get(file);
    beats.delete(file);
    if (beat !== undefined) {
      clearInterval(beat.timer);
      // A renewal that already started must land before the lock goes, or it would bring it back.
      await beat.renewing;
    }
    await rm(file, { force: true });
  };
  if (count > 0) {
    held.set(file, count + 1);
    return release;
  }
  await mkdir(runDir, { recursive: true });
  const me: RunLockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command,
  };
  me.heartbeatAt = me.startedAt;
  installSignalRelease();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(me)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      held.set(file, 1);
      const beat = {
        timer: setInterval(() => {
          beat.renewing = beat.renewing.then(() => heartbeat(file, me));
        }, leaseMs() / 4),
        renewing: Promise.resolve(),
      };
      beat.timer.unref();
      beats.set(file, beat);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: RunLockHolder | null = null;
    try {
      holder = JSON.parse(await readFile(file, 'utf8')) as RunLockHolder;
    } catch {
      holder = null; // written halfway by a writer that died: stale
    }
    if (holder !== null && holds(holder, me)) {
      throw new PersonaForgeError(
        'RUN_LOCKED',
        `${runDir} is being written by another persona-forge (${holder.command}, pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`,
        {
          hint:
            holder.host === me.host
              ? 'wait for it to finish, or use another --out'
              : `its lease is renewed while it runs; if that process is gone, the lock expires ${Math.round(leaseMs() / 1000)} s after its last heartbeat (${holder.heartbeatAt ?? holder.startedAt})`,
        },
      );
    }
    await rm(file, { force: true });
  }
  throw new PersonaForgeError('RUN_LOCKED', `could not take the lock ${file}`);
}
