/**
 * The index kept beside the run (`<run>/.view/index.json`): built once, reused while the run's
 * manifest and every file it was built from are unchanged, rebuilt otherwise. A run folder that
 * cannot be written to still gets its index, held in memory for this session only.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs.js';
import { sha256 } from '../util/hash.js';
import { buildIndexEntries, DIALOGUE_FILE, MEMORY_FILE, PLAN_FILE } from './build-index.js';
import type { RunFacts } from './run-facts.js';
import type { IndexKey, ViewIndex } from './types.js';

/** Bumped whenever the index's shape changes, so an older index is never read. */
const FORMAT = 1;
export const INDEX_PATH = '.view/index.json';

/** Files whose change makes the index stale, beside the manifest. */
const WATCHED = [PLAN_FILE, DIALOGUE_FILE, MEMORY_FILE, 'validation.json', 'quarantine.jsonl'];

async function currentKey(runDir: string, exported: string[]): Promise<IndexKey> {
  let manifest = '';
  try {
    manifest = sha256(await readFile(join(runDir, 'manifest.json'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const files: IndexKey['files'] = {};
  for (const path of [...WATCHED, ...exported]) {
    try {
      const s = await stat(join(runDir, path));
      files[path] = [s.size, s.mtimeMs];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return { manifest, files };
}

const sameKey = (a: IndexKey, b: IndexKey) => JSON.stringify(a) === JSON.stringify(b);

export interface LoadedIndex {
  index: ViewIndex;
  /** `reused`: read from beside the run; `built`: built now (and saved when `saved`). */
  source: 'reused' | 'built';
  saved: boolean;
}

/**
 * The run's index, reused when fresh, else built and saved beside the run.
 *
 * @example const { index, source } = await loadIndex('out/quickstart', facts);
 */
export async function loadIndex(runDir: string, facts: RunFacts): Promise<LoadedIndex> {
  const path = join(runDir, INDEX_PATH);
  let stored: ViewIndex | null = null;
  try {
    stored = JSON.parse(await readFile(path, 'utf8')) as ViewIndex;
  } catch {
    stored = null; // absent or unreadable: built again below
  }
  if (stored !== null && stored.format === FORMAT) {
    const key = await currentKey(
      runDir,
      (stored.samples ?? []).map((s) => s.path),
    );
    if (sameKey(key, stored.key)) return { index: stored, source: 'reused', saved: true };
  }
  const { users, samples } = await buildIndexEntries(runDir, facts);
  const index: ViewIndex = {
    format: FORMAT,
    key: await currentKey(
      runDir,
      samples.map((s) => s.path),
    ),
    users,
    samples,
  };
  let saved = true;
  try {
    await writeFileAtomic(path, JSON.stringify(index));
  } catch {
    saved = false;
  }
  return { index, source: 'built', saved };
}
