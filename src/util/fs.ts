import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { InputError } from '../errors/index.js';

/**
 * Writes a file atomically: the bytes go to a temporary file in the same folder, are flushed to
 * disk, then renamed over the target. A crash leaves either the old file or the new one, never half.
 *
 * @example await writeFileAtomic('out/manifest.json', JSON.stringify(manifest));
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Writes records as JSON Lines atomically. */
export async function writeJsonl(path: string, records: Iterable<unknown>): Promise<void> {
  const lines: string[] = [];
  for (const record of records) lines.push(JSON.stringify(record));
  await writeFileAtomic(path, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/** Writes pretty JSON (2-space, trailing newline) atomically. */
export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Streams a JSON Lines file, yielding parsed values. A bad line throws an `InputError` naming
 * the file and line number. Blank lines are skipped. A missing file yields nothing when
 * `allowMissing` is set.
 */
export async function* readJsonl(
  path: string,
  options: { allowMissing?: boolean } = {},
): AsyncGenerator<unknown> {
  let stream: ReturnType<typeof createReadStream>;
  try {
    await access(path);
    stream = createReadStream(path, { encoding: 'utf8' });
  } catch (error) {
    if (options.allowMissing === true && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new InputError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line);
    } catch (error) {
      throw new InputError(path, `line ${lineNumber} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/** Reads a whole JSON Lines file into memory. */
export async function readJsonlAll(
  path: string,
  options: { allowMissing?: boolean } = {},
): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const record of readJsonl(path, options)) out.push(record);
  return out;
}

/** Reads and parses a JSON file, with an error naming the file. */
export async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(path, `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}
