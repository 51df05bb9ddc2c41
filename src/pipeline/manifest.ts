import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isTempFile } from '../util/fs.js';

export { gitCommit, packageVersion } from '../util/provenance.js';

/**
 * Digests this process computed, by path, with the identity of the file they were computed
 * from (device, inode, size, modification and change times): a run hashes each output when it
 * writes the stage's marker, and finds the same file again when a later stage checks that its
 * input is unchanged and when the run's manifest lists it. A write changes the times (an atomic
 * replace, the inode too). File times advance in coarse steps, so a digest is kept only for a
 * file last written well before hashing began: a write during or after hashing always shows.
 */
const digests = new Map<string, { identity: string; sha256: string }>();
const SETTLED_MS = 50;

async function sha256File(path: string): Promise<string> {
  const started = Date.now();
  const info = await stat(path, { bigint: true });
  const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  const known = digests.get(path);
  if (known?.identity === identity) return known.sha256;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  const sha256 = hash.digest('hex');
  const written = Number((info.ctimeNs > info.mtimeNs ? info.ctimeNs : info.mtimeNs) / 1_000_000n);
  if (written < started - SETTLED_MS) digests.set(path, { identity, sha256 });
  else digests.delete(path);
  return sha256;
}

/**
 * sha256 of every file under the given output paths of the run directory (files or folders,
 * posix relative paths, sorted): the files the current configuration produced, never the
 * runner's own state, temporary files or anything else lying in the folder.
 */
export async function hashOutputs(runDir: string, paths: string[]): Promise<Record<string, string>> {
  const files = new Set<string>();
  const walk = async (full: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(full, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        files.add(relative(runDir, full).split(sep).join('/'));
      }
      return;
    }
    for (const entry of entries) {
      const child = join(full, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && !isTempFile(entry.name))
        files.add(relative(runDir, child).split(sep).join('/'));
    }
  };
  for (const path of paths) await walk(join(runDir, path));
  const out: Record<string, string> = {};
  for (const rel of [...files].sort()) out[rel] = await sha256File(join(runDir, rel));
  return out;
}

/** Size and sha256 of every file under the given output paths (a stage marker's record). */
export async function outputDigests(
  runDir: string,
  paths: string[],
): Promise<Record<string, { size: number; sha256: string }>> {
  const hashes = await hashOutputs(runDir, paths);
  const out: Record<string, { size: number; sha256: string }> = {};
  for (const [rel, sha256] of Object.entries(hashes)) {
    out[rel] = { size: (await stat(join(runDir, rel))).size, sha256 };
  }
  return out;
}

/**
 * Whether the files under `paths` are exactly the ones a marker recorded (same names, sizes and
 * sha256). Sizes are compared first, so a truncated or deleted file is found without hashing.
 */
export async function outputsMatch(
  runDir: string,
  paths: string[],
  recorded: Record<string, { size: number; sha256: string }>,
): Promise<boolean> {
  const names = Object.keys(recorded);
  for (const rel of names) {
    try {
      if ((await stat(join(runDir, rel))).size !== recorded[rel]?.size) return false;
    } catch {
      return false;
    }
  }
  const now = await hashOutputs(runDir, paths);
  if (Object.keys(now).length !== names.length) return false;
  return names.every((rel) => now[rel] === recorded[rel]?.sha256);
}
