import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJson, writeStreamAtomic } from '../util/fs.js';

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
  /** Size and sha256 of every output file: a resumed run skips the stage only if they still match. */
  files?: Record<string, { size: number; sha256: string }>;
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
 * folder (one name per target) is streamed in 1 MiB batches, every byte written, fsynced and
 * renamed over the target.
 */
export async function writeLinesAtomic(
  path: string,
  lines: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  await writeStreamAtomic(path, async (write) => {
    let buffer: string[] = [];
    let size = 0;
    for await (const line of lines) {
      buffer.push(line, '\n');
      size += line.length + 1;
      if (size > 1 << 20) {
        await write(buffer.join(''));
        buffer = [];
        size = 0;
      }
    }
    if (buffer.length > 0) await write(buffer.join(''));
  });
}
