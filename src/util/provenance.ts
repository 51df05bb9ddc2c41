import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The package version from package.json. */
export async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The git commit of the persona-forge checkout, or null outside a git checkout. */
export async function gitCommit(): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)('git', ['rev-parse', 'HEAD'], {
      cwd: packageRoot,
      timeout: 5000,
    });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}
