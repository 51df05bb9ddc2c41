import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PersonaForgeError } from '../errors/index.js';

/**
 * What persona-forge itself leaves in an output folder before it has a manifest: its lock, its
 * state, the cluster files of `slurm run` / `k8s run` and the shard runs they start.
 */
const OWN_ENTRIES = new Set(['.pf-lock', '.state', 'slurm', 'k8s', 'shards']);

/** Whether `runDir` holds a persona-forge run: its state folder, or a manifest persona-forge wrote. */
async function isRunDir(runDir: string, entries: string[]): Promise<boolean> {
  if (entries.includes('.state')) return true;
  if (!entries.includes('manifest.json')) return false;
  try {
    const manifest = JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8')) as { tool?: unknown };
    return manifest.tool === 'persona-forge';
  } catch {
    return false;
  }
}

/**
 * Refuses to write into a folder that is not a persona-forge run: a missing or empty folder, or
 * one holding only what persona-forge writes, is fine; anything else without a persona-forge
 * manifest is an `OUT_DIR_NOT_A_RUN` error naming the folder and a few of its entries, unless
 * `adopt` (`--force`) says to use it (the run then replaces only the paths it writes).
 *
 * @example await checkOutDir('out/q', { adopt: false });
 */
export async function checkOutDir(
  runDir: string,
  options: { adopt?: boolean; writes?: string[] } = {},
): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(runDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR')
      throw new PersonaForgeError('OUT_DIR_NOT_A_RUN', `--out ${runDir} is a file, not a folder`, {
        hint: 'name a new folder (or a persona-forge run folder) for --out',
      });
    throw error;
  }
  const foreign = entries.filter((name) => !OWN_ENTRIES.has(name));
  if (foreign.length === 0 || options.adopt === true || (await isRunDir(runDir, entries))) return;
  const shown = foreign.sort().slice(0, 5).join(', ');
  const replaced = (options.writes ?? []).filter((path) => entries.includes(path.split('/')[0] as string));
  throw new PersonaForgeError(
    'OUT_DIR_NOT_A_RUN',
    `--out ${runDir} is not empty and is not a persona-forge run (no manifest.json written by persona-forge); it holds ${foreign.length} entr${foreign.length === 1 ? 'y' : 'ies'}: ${shown}${foreign.length > 5 ? ', …' : ''}. Nothing was changed`,
    {
      hint: `name a new folder for --out, or add --force to use this one (the run would replace ${replaced.length > 0 ? [...new Set(replaced.map((p) => p.split('/')[0]))].join(', ') : 'only the files it writes'}; everything else is left alone)`,
    },
  );
}
