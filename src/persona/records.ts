import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
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

async function* readJsonlRecords(path: string, limit: number): AsyncGenerator<SourceRecord> {
  // Streamed line by line: PersonaHub's persona.jsonl is ~200k lines and never held whole.
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  let count = 0;
  try {
    for await (const text of lines) {
      line++;
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
  } finally {
    lines.close();
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
  try {
    await access(path);
  } catch (error) {
    throw new InputError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  if (kind === 'jsonl') {
    yield* readJsonlRecords(path, limit);
    return;
  }
  const all =
    kind === 'csv'
      ? parseCsv(await readFile(path, 'utf8'))
      : kind === 'json'
        ? await readJsonRecords(path)
        : await readParquetRecords(path);
  yield* limit > 0 ? all.slice(0, limit) : all;
}
