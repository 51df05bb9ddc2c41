import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { writeJson, writeStreamAtomic } from '../util/fs.js';
import { hashValue } from '../util/hash.js';
import { hashOutputs, packageVersion } from './manifest.js';

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
  /** The persona-forge version that wrote the outputs (absent in markers of older versions). */
  version?: string;
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

/**
 * Whether a stage's output file is exactly what this persona-forge version wrote: its marker
 * was written by this version and records the file with the size and sha256 it has now. Such
 * records conform to this version's schemas by construction, so a later stage may read them
 * without parsing each one through its schema again (a file edited, restored from elsewhere or
 * written by another version is parsed).
 *
 * @example if (await writtenByThisVersion(runDir, 'synth', 'dialogues/dialogues.jsonl')) …
 */
export async function writtenByThisVersion(runDir: string, stage: string, file: string): Promise<boolean> {
  const marker = await readMarker(runDir, stage);
  const recorded = marker?.files?.[file];
  if (marker === null || recorded === undefined || marker.version !== (await packageVersion())) return false;
  try {
    if ((await stat(join(runDir, file))).size !== recorded.size) return false;
  } catch {
    return false;
  }
  const now = await hashOutputs(runDir, [file]);
  return now[file] === recorded.sha256;
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

/**
 * Each stage's fingerprint chains the whole resolved config, the seed, the shard and the stages
 * before it: a finished stage is reused only by a run of exactly the same configuration.
 */
export function stageFingerprints(
  config: PipelineConfig,
  shard: { index: number; count: number } | null,
): Record<string, string> {
  let upstream = hashValue({ configHash: hashValue(config), seed: config.seed, shard });
  const out: Record<string, string> = {};
  for (const name of config.stages) {
    upstream = hashValue({ upstream, stage: name });
    out[name] = upstream;
  }
  return out;
}
