import { createReadStream } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { InputError } from '../errors/index.js';
import { parseCsv } from './csv.js';

export type RecordFormat = 'auto' | 'jsonl' | 'json' | 'csv' | 'parquet';

/** One input row with its 1-based line (jsonl/csv) or row number (parquet) for error messages. */
export interface SourceRecord {
  line: number;
  record: Record<string, unknown>;
}

/** Picks the reader from the extension when the format is `auto`. */
export function resolveFormat(path: string, format: RecordFormat): Exclude<RecordFormat, 'auto'> {
  if (format !== 'auto') return format;
  const extension = extname(path).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.json') return 'json';
  if (extension === '.csv') return 'csv';
  if (extension === '.parquet') return 'parquet';
  throw new InputError(path, `cannot tell the format from the extension "${extension}"`, {
    hint: 'set `format: jsonl | csv | parquet` in the personas file/hub section',
  });
}

/** Longest persona line read (1 MiB): a longer one is an error, never buffered whole. */
export const MAX_LINE_BYTES = 1 << 20;

/** Decodes UTF-8 strictly: invalid bytes are an error naming the line, never replaced silently. */
function decodeLine(path: string, line: number, bytes: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return line === 1 ? text.replace(/^\uFEFF/, '') : text;
  } catch {
    throw new InputError(path, `line ${line} is not valid UTF-8`, { hint: 'save the file as UTF-8' });
  }
}

/** Lines of a file as raw bytes, without their newline (CRLF too), with a length limit. */
async function* byteLines(
  path: string,
  maxBytes: number,
): AsyncGenerator<{ line: number; bytes: Uint8Array }> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let line = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      pendingLength += end - start;
      if (pendingLength > maxBytes) {
        throw new InputError(path, `line ${line + 1} is longer than ${maxBytes} bytes`, {
          hint: 'one persona per line; a line this long is not a persona record',
        });
      }
      pending.push(chunk.subarray(start, end));
      if (newline === -1) break;
      line++;
      let bytes: Uint8Array = Buffer.concat(pending);
      if (bytes[bytes.length - 1] === 13) bytes = bytes.subarray(0, bytes.length - 1);
      yield { line, bytes };
      pending = [];
      pendingLength = 0;
      start = newline + 1;
    }
  }
  if (pendingLength > 0) yield { line: line + 1, bytes: Buffer.concat(pending) };
}

async function* readJsonlRecords(path: string, limit: number): AsyncGenerator<SourceRecord> {
  // Streamed line by line: PersonaHub's persona.jsonl is ~200k lines and never held whole.
  let count = 0;
  for await (const { line, bytes } of byteLines(path, MAX_LINE_BYTES)) {
    const text = decodeLine(path, line, bytes);
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new InputError(path, `line ${line} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new InputError(path, `line ${line} is not a JSON object`);
    }
    yield { line, record: value as Record<string, unknown> };
    if (limit > 0 && ++count >= limit) return;
  }
}

/** A whole text file, strictly UTF-8 (BOM dropped), with the line of the first bad byte in the error. */
async function readTextStrict(path: string): Promise<string> {
  const bytes = await readFile(path);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    // Find the line: decode line by line.
    let line = 0;
    let start = 0;
    for (;;) {
      const end = bytes.indexOf(10, start);
      line++;
      decodeLine(path, line, bytes.subarray(start, end === -1 ? bytes.length : end));
      if (end === -1) break;
      start = end + 1;
    }
    throw new InputError(path, 'is not valid UTF-8');
  }
}

/** A whole-file JSON: one persona object (LoCoMo's agent_a.json) or an array of them. */
async function readJsonRecords(path: string): Promise<SourceRecord[]> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new InputError(path, `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new InputError(path, `record ${index + 1} is not a JSON object`);
    }
    return { line: index + 1, record: item as Record<string, unknown> };
  });
}

async function readParquetRecords(path: string): Promise<SourceRecord[]> {
  const [{ readParquet }, { tableFromIPC }] = await Promise.all([
    import('parquet-wasm'),
    import('apache-arrow'),
  ]);
  const bytes = new Uint8Array(await readFile(path));
  let table: ReturnType<typeof tableFromIPC>;
  try {
    table = tableFromIPC(readParquet(bytes).intoIPCStream());
  } catch (error) {
    throw new InputError(path, `not a readable parquet file: ${(error as Error).message}`, { cause: error });
  }
  const out: SourceRecord[] = [];
  let row = 0;
  for (const item of table) {
    row++;
    const record: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(item.toJSON())) {
      // Arrow list columns come back as vectors; BigInt ages as bigint.
      record[key] =
        typeof value === 'bigint'
          ? Number(value)
          : value !== null && typeof value === 'object' && 'toArray' in value
            ? Array.from((value as { toArray(): ArrayLike<unknown> }).toArray())
            : value;
    }
    out.push({ line: row, record });
  }
  return out;
}

/**
 * Reads persona records from a jsonl (streamed), csv or parquet file. `limit` > 0 stops after
 * that many records.
 *
 * @example for await (const { line, record } of readRecords('personas.csv', 'auto')) …
 */
export async function* readRecords(
  path: string,
  format: RecordFormat,
  limit = 0,
): AsyncGenerator<SourceRecord> {
  const kind = resolveFormat(path, format);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    await access(path);
    info = await stat(path);
  } catch (error) {
    throw new InputError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  // A device or pipe (/dev/zero) would be read forever.
  if (!info.isFile()) throw new InputError(path, 'is not a regular file');
  if (kind !== 'jsonl' && info.size > 2 ** 31) {
    throw new InputError(path, `is ${info.size} bytes; read files this large as jsonl (streamed)`);
  }
  if (kind === 'jsonl') {
    yield* readJsonlRecords(path, limit);
    return;
  }
  const all =
    kind === 'csv'
      ? parseCsv(await readTextStrict(path), path)
      : kind === 'json'
        ? await readJsonRecords(path)
        : await readParquetRecords(path);
  yield* limit > 0 ? all.slice(0, limit) : all;
}
