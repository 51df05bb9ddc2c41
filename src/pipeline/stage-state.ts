import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeJson } from '../util/fs.js';

/** Where the runner keeps its own bookkeeping inside a run directory. */
export function stateDir(runDir: string): string {
  return join(runDir, '.state');
}

export interface StageMarker {
  stage: string;
  fingerprint: string;
  in: number;
  out: number;
  quarantined: number;
  offline: boolean;
  notes?: Record<string, unknown>;
}

export async function readMarker(runDir: string, stage: string): Promise<StageMarker | null> {
  try {
    return JSON.parse(await readFile(join(stateDir(runDir), `${stage}.done.json`), 'utf8')) as StageMarker;
  } catch {
    return null;
  }
}

export async function writeMarker(runDir: string, marker: StageMarker): Promise<void> {
  await writeJson(join(stateDir(runDir), `${marker.stage}.done.json`), marker);
}

export async function clearMarker(runDir: string, stage: string): Promise<void> {
  await rm(join(stateDir(runDir), `${stage}.done.json`), { force: true });
}

/**
 * Writes lines to `path` atomically without building one giant string: a temp file in the same
 * folder is streamed, fsynced and renamed over the target.
 */
export async function writeLinesAtomic(
  path: string,
  lines: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    let buffer: string[] = [];
    let size = 0;
    for await (const line of lines) {
      buffer.push(line, '\n');
      size += line.length + 1;
      if (size > 1 << 20) {
        await handle.write(buffer.join(''));
        buffer = [];
        size = 0;
      }
    }
    if (buffer.length > 0) await handle.write(buffer.join(''));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
}
