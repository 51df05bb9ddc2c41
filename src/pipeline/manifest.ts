import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
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

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * sha256 of every output file under the run directory (posix relative paths, sorted), leaving
 * out the runner's own state and the manifest itself.
 */
export async function hashOutputs(runDir: string): Promise<Record<string, string>> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === '.state') continue;
        await walk(full);
      } else if (entry.isFile() && !entry.name.endsWith('.tmp')) {
        const rel = relative(runDir, full).split(sep).join('/');
        if (rel !== 'manifest.json') files.push(rel);
      }
    }
  };
  await walk(runDir);
  files.sort();
  const out: Record<string, string> = {};
  for (const rel of files) out[rel] = await sha256File(join(runDir, rel));
  return out;
}
