import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PersonaForgeError } from '../errors/index.js';

/** Who holds a run directory. */
export interface RunLockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

const LOCK_FILE = '.pf-lock';
/** Locks this process holds, with a count (a merge runs the pipeline inside its own lock). */
const held = new Map<string, number>();

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
 * exclusively so two writers can never both hold it. A lock left by a process that died on this
 * host (kill -9, a crash) is stale and taken over; a live holder, or one on another host, makes
 * this a `RUN_LOCKED` error naming it. Returns the release function.
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
    if (holder !== null && (holder.host !== me.host || alive(holder.pid))) {
      throw new PersonaForgeError(
        'RUN_LOCKED',
        `${runDir} is being written by another persona-forge (${holder.command}, pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`,
        {
          hint:
            holder.host === me.host
              ? 'wait for it to finish, or use another --out'
              : `if that process is gone, remove ${file} and run again`,
        },
      );
    }
    await rm(file, { force: true });
  }
  throw new PersonaForgeError('RUN_LOCKED', `could not take the lock ${file}`);
}
