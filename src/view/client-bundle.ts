/**
 * The browser's code: src/view/client/*.ts bundled by esbuild into one script (no CDN, works
 * offline), built once and kept under node_modules/.cache/persona-forge/view while none of its
 * sources changes (as src/util/worker-code.ts keeps the worker bundles).
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../util/fs.js';
import { sha256 } from '../util/hash.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLIENT_DIR = join(here, 'client');
const packageRoot = resolve(here, '..', '..');
export const CLIENT_CACHE_DIR = join(packageRoot, 'node_modules', '.cache', 'persona-forge', 'view');

export interface ClientAssets {
  script: string;
  style: string;
}

/** The bundled script and the stylesheet of the browser. */
export async function clientAssets(cacheDir = CLIENT_CACHE_DIR): Promise<ClientAssets> {
  const names = (await readdir(CLIENT_DIR)).filter((n) => /\.(ts|css)$/.test(n)).sort();
  const sources = await Promise.all(names.map((n) => readFile(join(CLIENT_DIR, n), 'utf8')));
  const style = sources[names.indexOf('style.css')] ?? '';
  const { version } = createRequire(import.meta.url)('esbuild/package.json') as { version: string };
  const key = sha256(JSON.stringify([version, names, sources])).slice(0, 24);
  const cached = join(cacheDir, `client-${key}.js`);
  try {
    return { script: await readFile(cached, 'utf8'), style };
  } catch {
    // not built yet
  }
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(CLIENT_DIR, 'main.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text ?? '';
  try {
    await writeFileAtomic(cached, script, { concurrent: true });
  } catch {
    // a read-only package folder: the bundle lives in memory for this session
  }
  return { script, style };
}
