import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledWorker, WORKER_SOURCES_ENV } from './worker-code.js';

let dir: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'worker-code-'));
  cache = join(dir, 'cache');
  writeFileSync(
    join(dir, 'dep.ts'),
    "export const where: string = import.meta.url;\nexport const text = 'import.meta.url';\nexport const twice = (n: number): number => n * 2;\n",
  );
  writeFileSync(
    join(dir, 'job.ts'),
    "import { text, twice, where } from './dep.js';\nexport function job(n: number) { return { where, text, value: twice(n) }; }\nexport const factor = 10;\nexport const scale = (by: number) => (n: number) => n * by;\n",
  );
});
afterEach(() => {
  delete process.env[WORKER_SOURCES_ENV];
  rmSync(dir, { recursive: true, force: true });
});

const module = () => pathToFileURL(join(dir, 'job.ts')).href;
const load = async (url: string | null) =>
  (await import(url as string)) as { handler: (n: number) => unknown };

describe('compiledWorker', () => {
  it('compiles a handler with its imports into one module; each source keeps its own import.meta.url', async () => {
    const url = await compiledWorker({ module: module(), exportName: 'job' }, cache);
    expect(url).not.toBeNull();
    expect(fileURLToPath(url as string).startsWith(cache)).toBe(true);
    expect((await load(url)).handler(21)).toEqual({
      where: pathToFileURL(join(dir, 'dep.ts')).href,
      text: 'import.meta.url',
      value: 42,
    });
  });

  it('reuses the bundle while the sources are unchanged, rebuilds when one changes, and drops a build only once unused for a day', async () => {
    const code = { module: module(), exportName: 'job' };
    const first = (await compiledWorker(code, cache)) as string;
    const built = statSync(fileURLToPath(first)).mtimeMs;
    expect(await compiledWorker(code, cache)).toBe(first);
    expect(statSync(fileURLToPath(first)).mtimeMs).toBe(built);

    // Same size, other content: only the content decides.
    const edit = (factor: number) =>
      writeFileSync(
        join(dir, 'dep.ts'),
        `export const where: string = import.meta.url;\nexport const text = 'import.meta.url';\nexport const twice = (n: number): number => n * ${factor};\n`,
      );
    edit(3);
    const second = (await compiledWorker(code, cache)) as string;
    expect(second).not.toBe(first);
    expect(((await load(second)).handler(21) as { value: number }).value).toBe(63);
    // A run that started from the first build may still load its chunks: it stays.
    expect(existsSync(fileURLToPath(first))).toBe(true);

    // Unused for two days, it goes with the next build.
    const old = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(join(fileURLToPath(first), '..'), old, old);
    edit(4);
    const third = (await compiledWorker(code, cache)) as string;
    expect(existsSync(fileURLToPath(first))).toBe(false);
    expect(existsSync(fileURLToPath(second))).toBe(true);
    expect(((await load(third)).handler(21) as { value: number }).value).toBe(84);
    expect(readdirSync(cache).filter((name) => !name.endsWith('.json'))).toHaveLength(2);
  });

  it('keeps a module imported with import() in a chunk of its own, evaluated only when imported; an alias names the record', async () => {
    writeFileSync(
      join(dir, 'late.ts'),
      '(globalThis as Record<string, unknown>).lateLoaded = true;\nexport const late = 7;\n',
    );
    writeFileSync(
      join(dir, 'lazy.ts'),
      "export async function lazy(n: number) { const { late } = await import('./late.js'); return n + late; }\n",
    );
    const url = await compiledWorker(
      { module: pathToFileURL(join(dir, 'lazy.ts')).href, exportName: 'lazy' },
      cache,
      'cli',
    );
    const handler = (await load(url)).handler as unknown as (n: number) => Promise<number>;
    expect((globalThis as Record<string, unknown>).lateLoaded).toBeUndefined();
    expect(await handler(1)).toBe(8);
    expect((globalThis as Record<string, unknown>).lateLoaded).toBe(true);
    const folder = join(fileURLToPath(url as string), '..');
    expect(readdirSync(folder).length).toBeGreaterThan(1);
    const record = JSON.parse(readFileSync(join(cache, 'cli.json'), 'utf8')) as {
      bundle: string;
      inputs: object;
    };
    expect(pathToFileURL(join(cache, record.bundle)).href).toBe(url);
    expect(Object.keys(record.inputs)).toContain(join(dir, 'late.ts'));
  });

  it('wraps the export when asked (a factory turning a value into the handler)', async () => {
    const url = await compiledWorker(
      { module: module(), exportName: 'factor', wrap: { module: module(), exportName: 'scale' } },
      cache,
    );
    expect((await load(url)).handler(4)).toBe(40);
  });

  it('gives null (the caller runs the sources through tsx) when told to, or when the code cannot be compiled', async () => {
    process.env[WORKER_SOURCES_ENV] = '1';
    expect(await compiledWorker({ module: module(), exportName: 'job' }, cache)).toBeNull();
    delete process.env[WORKER_SOURCES_ENV];
    expect(
      await compiledWorker({ module: 'https://example.com/job.js', exportName: 'job' }, cache),
    ).toBeNull();
    expect(await compiledWorker({ module: module(), exportName: 'not an identifier' }, cache)).toBeNull();
    writeFileSync(join(dir, 'job.ts'), 'export function job( {\n');
    expect(await compiledWorker({ module: module(), exportName: 'job' }, cache)).toBeNull();
    expect(existsSync(cache) ? readdirSync(cache) : []).toEqual([]);
  });
});
