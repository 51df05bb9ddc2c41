import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The shipped binary (what `npx --no-install persona-forge` starts). */
export const BIN = resolve(import.meta.dirname, '../../bin/persona-forge.js');
const exec = promisify(execFile);

/** Runs the shipped binary in `cwd`; resolves with its exit code and output, never rejects on a non-zero exit. */
export async function runCli(
  cwd: string,
  args: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { cwd, env, maxBuffer: 1 << 26 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Every file of a run directory with its bytes, except the runner's state and the manifest. */
export async function runFiles(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (path: string) => {
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.state') await walk(full);
      } else if (entry.name !== 'manifest.json') out.set(relative(dir, full), await readFile(full));
    }
  };
  await walk(dir);
  return out;
}
