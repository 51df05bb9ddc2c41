import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { runCli } from './cli.js';

/**
 * Reference runs that several test files compare against, made once per test session through the
 * shipped binary and shared: `small` is pipelines/quickstart.yaml with 4 train and 2 test users,
 * `quickstart` the pipeline itself. The first file (in any vitest worker) that asks makes the run;
 * the others wait for it. A test never writes into a shared run: it reads it, or works on a copy
 * (`copySharedRun`). Runs are keyed by their pipeline text and the sources' sizes and times, so a
 * watch-mode rerun after an edit makes them again.
 */
const repoRoot = resolve(import.meta.dirname, '../..');

export type SharedRunName = 'small' | 'quickstart';

export interface SharedRun {
  /** The pipeline file to run for the same data (never edited; other files may extend it). */
  pipeline: string;
  /** The finished run directory: read-only. */
  dir: string;
}

const quickstart = join(repoRoot, 'pipelines/quickstart.yaml');
/** The pipeline text a shared run writes beside it, or null for a shipped pipeline run as it is. */
const PIPELINES: Record<SharedRunName, string | null> = {
  small: `extends: ${quickstart}\npersonas:\n  train: 4\n  test: 2\n`,
  quickstart: null,
};

/** Sizes and modification times of what a run's bytes depend on. */
async function sourcesStamp(): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else {
        const s = await stat(full);
        hash.update(`${full} ${s.size} ${s.mtimeMs}\n`);
      }
    }
  };
  for (const folder of ['src', 'data', 'pipelines', 'configs', 'bin']) await walk(join(repoRoot, folder));
  return hash.digest('hex').slice(0, 16);
}

const made = new Map<SharedRunName, Promise<SharedRun>>();

/** The shared reference run `name`, made now if no test file of this session made it yet. */
export function sharedRun(name: SharedRunName): Promise<SharedRun> {
  let run = made.get(name);
  if (run === undefined) {
    run = makeOnce(name);
    made.set(name, run);
  }
  return run;
}

/** A private copy of the shared run `name` at `dest` (a test that edits or resumes a run works on one). */
export async function copySharedRun(name: SharedRunName, dest: string): Promise<SharedRun> {
  const { pipeline, dir } = await sharedRun(name);
  await cp(dir, dest, { recursive: true });
  return { pipeline, dir: dest };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function makeOnce(name: SharedRunName): Promise<SharedRun> {
  const text = PIPELINES[name];
  const key = createHash('sha256')
    .update(`${name}\n${text}\n${await sourcesStamp()}`)
    .digest('hex')
    .slice(0, 16);
  const base = join(inject('sharedRunsDir'), `${name}-${key}`);
  const pipeline = text === null ? quickstart : `${base}.yaml`;
  const dir = join(base, 'run');
  const failed = `${base}.failed`;
  // mkdir is atomic: the worker that creates the folder makes the run, the others wait for it.
  const mine = await mkdir(base).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (mine) {
    if (text !== null) await writeFile(pipeline, text);
    const building = join(base, 'building');
    const result = await runCli(base, ['run', pipeline, '--out', building, '--quiet']);
    if (result.code !== 0) {
      await writeFile(failed, `exit ${result.code}\n${result.stderr}`);
      throw new Error(`shared run ${name} failed (exit ${result.code}): ${result.stderr}`);
    }
    await rename(building, dir);
    return { pipeline, dir };
  }
  for (let waited = 0; ; waited += 250) {
    if (await exists(dir)) return { pipeline, dir };
    if (await exists(failed)) throw new Error(`shared run ${name} failed: ${await readFile(failed, 'utf8')}`);
    if (waited > 900_000) throw new Error(`shared run ${name}: nothing after 15 min in ${base}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}
