import { createReadStream } from 'node:fs';
import { access, type FileHandle, mkdir, open, readFile, rename, rm, statfs } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { InputError, PersonaForgeError } from '../errors/index.js';

/**
 * The temporary name an atomic write of `path` uses: one per target, in the same folder, so a
 * write interrupted by a crash leaves a file the next write of the same target replaces (and a
 * run's start-up sweep removes) instead of a new random name each time.
 */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp`);
}

/** Whether a file name is one of {@link tempPathFor}'s temporary files (or an older random one). */
export function isTempFile(name: string): boolean {
  return name.endsWith('.tmp') && (name.startsWith('.') || /\.[0-9a-f]{12}\.tmp$/.test(name));
}

/**
 * Turns a write error into one that says what happened: a full or read-only disk becomes a
 * `DISK_FULL` error naming the path and the free space; anything else is returned unchanged.
 */
export async function describeWriteError(path: string, error: unknown): Promise<unknown> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ENOSPC' && code !== 'EROFS' && code !== 'EDQUOT') return error;
  let free = 'unknown';
  try {
    const stats = await statfs(dirname(path));
    free = `${((stats.bavail * stats.bsize) / 1024 / 1024).toFixed(1)} MiB`;
  } catch {
    // the free space is only a hint
  }
  const what = code === 'EROFS' ? 'the file system is read-only' : 'no space left on the device';
  return new PersonaForgeError('DISK_FULL', `cannot write ${path}: ${what} (${free} free)`, {
    cause: error,
    hint: 'free some space (or point --out elsewhere) and run the same command again: finished work is kept',
  });
}

/**
 * Writes every byte of `data` through `handle`, looping while the system writes fewer bytes
 * than asked (a short write), so a file is never silently cut.
 */
export async function writeAll(handle: FileHandle, data: string | Uint8Array): Promise<void> {
  let bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  while (bytes.length > 0) {
    const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
    if (bytesWritten <= 0) {
      throw Object.assign(new Error('write made no progress'), { code: 'ENOSPC' });
    }
    bytes = bytes.subarray(bytesWritten);
  }
}

let uniqueTemp = 0;

/**
 * Writes a file atomically: the bytes go to a temporary file in the same folder, every byte is
 * written and flushed to disk, then the file is renamed over the target. A crash leaves either
 * the old file or the new one, never half; a full disk is a `DISK_FULL` error naming the path.
 *
 * @example await writeFileAtomic('out/manifest.json', JSON.stringify(manifest));
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { concurrent?: boolean } = {},
): Promise<void> {
  await writeStreamAtomic(
    path,
    async (write) => {
      await write(data);
    },
    options,
  );
}

/**
 * The streaming form of {@link writeFileAtomic}: `fill` calls `write` as often as it likes
 * (each chunk is written in full), then the file is fsynced and renamed into place.
 */
export async function writeStreamAtomic(
  path: string,
  fill: (write: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>,
  options: { concurrent?: boolean } = {},
): Promise<void> {
  // Writers that may race on one target (a shared cache) each take their own temporary name.
  const tmp =
    options.concurrent === true
      ? join(dirname(path), `.${basename(path)}.${process.pid}-${++uniqueTemp}.tmp`)
      : tempPathFor(path);
  try {
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(tmp, 'w');
    try {
      await fill((chunk) => writeAll(handle, chunk));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw await describeWriteError(path, error);
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
