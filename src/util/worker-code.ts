import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeFileAtomic } from './fs.js';
import { sha256 } from './hash.js';

/**
 * The code a worker thread runs: the export `exportName` of `module`, a handler
 * `(message, data) => result`; with `wrap`, that module's export `wrap.exportName` called on the
 * value first turns it into the handler (a map stage into a job handler, say).
 */
export interface WorkerCode {
  module: string;
  exportName: string;
  wrap?: { module: string; exportName: string };
}

/** How long an older build is kept after a process last started from it. */
const BUILD_KEPT_MS = 24 * 60 * 60 * 1000;
/** Bumped whenever the compiled form changes, so no older bundle is ever reused. */
const FORMAT = 2;
const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where bundles live: inside the package, so their `import 'zod'` finds its node_modules. */
export const WORKER_CACHE_DIR = join(packageRoot, 'node_modules', '.cache', 'persona-forge', 'workers');
/** Set to 1 to run worker threads from the TypeScript sources through tsx (for debugging). */
export const WORKER_SOURCES_ENV = 'PERSONA_FORGE_WORKER_SOURCES';

/** `import.meta.url` as code: not right after a quote or backtick (a string or a comment's code span naming it). */
const META_URL = /(?<![\w.'"`])import\.meta\.url\b/g;

/** What a cache record says about a bundle: the file, and the sha256 of each source it was built from. */
interface CacheRecord {
  bundle: string;
  inputs: Record<string, string>;
}

/**
 * The URL of `code` compiled into one JavaScript module (esbuild, the compiler tsx itself uses;
 * npm packages stay imports), built once and reused while none of its source files changes:
 * a worker thread then starts in ~0.1 s, against ~0.5 s when tsx's loader resolves and
 * compiles each source file in every new thread. Every source's `import.meta.url` keeps naming
 * that source file. Null when the code cannot be compiled here (esbuild missing, a read-only
 * package folder, a compile error that the sources path will report) or when
 * `PERSONA_FORGE_WORKER_SOURCES=1`: the caller then runs the sources through tsx.
 *
 * With `alias`, the record is also written as `<alias>.json`, a fixed name a plain-JavaScript
 * starter can check without computing the key (bin/persona-forge.js does, for the CLI).
 *
 * @example const url = await compiledWorker({ module: new URL('./job.ts', import.meta.url).href, exportName: 'job' });
 */
export async function compiledWorker(
  code: WorkerCode,
  cacheDir = WORKER_CACHE_DIR,
  alias?: string,
): Promise<string | null> {
  if (process.env[WORKER_SOURCES_ENV] === '1') return null;
  const entry = entrySource(code);
  if (entry === null) return null;
  try {
    // The compiler's version from its package file: esbuild itself (~40 ms to load) only to build.
    const { version } = createRequire(import.meta.url)('esbuild/package.json') as { version: string };
    const key = sha256(JSON.stringify([FORMAT, version, entry])).slice(0, 24);
    const recordPath = join(cacheDir, `${key}.json`);
    const cached = await readRecord(recordPath);
    if (cached !== null && fresh(cached, cacheDir)) {
      const now = new Date();
      await utimes(dirname(join(cacheDir, cached.bundle)), now, now).catch(() => undefined);
      if (alias !== undefined)
        await writeFileAtomic(join(cacheDir, `${alias}.json`), JSON.stringify(cached), { concurrent: true });
      return pathToFileURL(join(cacheDir, cached.bundle)).href;
    }

    const esbuild = await import('esbuild');
    const inputs: Record<string, string> = {};
    const result = await esbuild.build({
      stdin: { contents: entry, resolveDir: packageRoot, sourcefile: 'worker-entry.ts', loader: 'ts' },
      bundle: true,
      // A module imported with `import()` becomes a chunk of its own, loaded when it is first
      // imported, and so do the npm packages only it imports: a command loads what it uses.
      splitting: true,
      outdir: '/out',
      outExtension: { '.js': '.mjs' },
      entryNames: 'entry',
      chunkNames: 'chunk-[hash]',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      // As tsx does: class and function names survive (errors are told apart by constructor name).
      keepNames: true,
      write: false,
      logLevel: 'silent',
      plugins: [
        {
          name: 'source-files',
          setup(build) {
            build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
              const text = await readFile(args.path, 'utf8');
              inputs[args.path] = sha256(text);
              return {
                contents: text.replace(META_URL, JSON.stringify(pathToFileURL(args.path).href)),
                loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
              };
            });
          },
        },
      ],
    });
    const files = result.outputFiles
      .map((file) => ({ name: relative('/out', file.path), text: file.text }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const folder = `${key}-${sha256(JSON.stringify(files)).slice(0, 16)}`;
    await writeFolderOnce(join(cacheDir, folder), files);
    const bundle = `${folder}/entry.mjs`;
    const record = JSON.stringify({ bundle, inputs } satisfies CacheRecord);
    await writeFileAtomic(recordPath, record, { concurrent: true });
    if (alias !== undefined)
      await writeFileAtomic(join(cacheDir, `${alias}.json`), record, { concurrent: true });
    // Older builds of the same code are removed once no process has started from them for a day:
    // a run still going loads code-split chunks from the folder it started with.
    for (const name of await readdir(cacheDir))
      if (name.startsWith(`${key}-`) && name !== folder && !name.includes('.tmp-')) {
        const used = await stat(join(cacheDir, name)).catch(() => null);
        if (used !== null && Date.now() - used.mtimeMs > BUILD_KEPT_MS)
          await rm(join(cacheDir, name), { recursive: true, force: true });
      }
    return pathToFileURL(join(cacheDir, bundle)).href;
  } catch {
    return null;
  }
}

/**
 * Writes the files into `folder` all at once: into a folder of its own first, then renamed. A
 * folder already there holds the same files (its name is their digest), so it is kept.
 */
async function writeFolderOnce(folder: string, files: Array<{ name: string; text: string }>): Promise<void> {
  if (existsSync(join(folder, 'entry.mjs'))) return;
  const temp = `${folder}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await mkdir(temp, { recursive: true });
  try {
    for (const file of files) await writeFile(join(temp, file.name), file.text);
    await rename(temp, folder);
  } catch (error) {
    if (!existsSync(join(folder, 'entry.mjs'))) throw error;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** The entry module compiled for `code`, or null when `code` names no local file or no identifier. */
function entrySource(code: WorkerCode): string | null {
  const identifier = /^[A-Za-z_$][\w$]*$/;
  const path = (url: string) => (url.startsWith('file:') ? JSON.stringify(fileURLToPath(url)) : null);
  const module = path(code.module);
  if (module === null || !identifier.test(code.exportName)) return null;
  if (code.wrap === undefined) return `export { ${code.exportName} as handler } from ${module};\n`;
  const wrap = path(code.wrap.module);
  if (wrap === null || !identifier.test(code.wrap.exportName)) return null;
  return [
    `import { ${code.wrap.exportName} as wrap } from ${wrap};`,
    `import { ${code.exportName} as value } from ${module};`,
    'export const handler = wrap(value);',
    '',
  ].join('\n');
}

async function readRecord(path: string): Promise<CacheRecord | null> {
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as CacheRecord;
    return typeof record.bundle === 'string' && typeof record.inputs === 'object' ? record : null;
  } catch {
    return null;
  }
}

/** Whether the bundle is there and every source it was built from still has the same content. */
function fresh(record: CacheRecord, cacheDir: string): boolean {
  try {
    if (!existsSync(join(cacheDir, record.bundle))) return false;
    for (const [path, digest] of Object.entries(record.inputs))
      if (sha256(readFileSync(path, 'utf8')) !== digest) return false;
    return true;
  } catch {
    return false;
  }
}
