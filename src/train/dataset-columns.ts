import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { tableFromIPC } from 'apache-arrow';

/** What the first rows of a dataset file look like. */
export interface DatasetSample {
  file: string;
  rowsRead: number;
  /** Columns present (non-null) in every row read. */
  columns: string[];
}

async function sampleJsonl(file: string, rows: number): Promise<DatasetSample> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let common: Set<string> | undefined;
  let read = 0;
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo += 1;
      if (line.trim() === '') continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        throw new Error(`${file}:${lineNo} is not valid JSON`);
      }
      if (typeof row !== 'object' || row === null || Array.isArray(row)) {
        throw new Error(`${file}:${lineNo} is not a JSON object`);
      }
      const keys = Object.entries(row)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k]) => k);
      common = common === undefined ? new Set(keys) : new Set(keys.filter((k) => common?.has(k)));
      read += 1;
      if (read >= rows) break;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  return { file, rowsRead: read, columns: [...(common ?? [])].sort() };
}

async function sampleParquet(file: string, rows: number): Promise<DatasetSample> {
  const { readParquet } = await import('parquet-wasm');
  const bytes = new Uint8Array(await readFile(file));
  const wasmTable = readParquet(bytes, { limit: rows });
  const table = tableFromIPC(wasmTable.intoIPCStream());
  const columns: string[] = [];
  for (const field of table.schema.fields) {
    const col = table.getChild(field.name);
    if (col === null) continue;
    let present = true;
    for (let i = 0; i < table.numRows; i++) if (col.get(i) === null) present = false;
    if (present) columns.push(field.name);
  }
  return { file, rowsRead: table.numRows, columns: columns.sort() };
}

/**
 * Reads the first `rows` rows of a `.jsonl` or `.parquet` dataset and reports the columns every
 * one of them carries (non-null). Throws `Error` for a missing or malformed file.
 *
 * @example
 * const { columns } = await sampleDataset('export/rl/train.jsonl', 5); // ['messages', 'solution', …]
 */
export async function sampleDataset(file: string, rows = 5): Promise<DatasetSample> {
  if (!existsSync(file)) throw new Error(`dataset not found: ${file}`);
  if (/\.parquet$/i.test(file)) return sampleParquet(file, rows);
  if (/\.jsonl$/i.test(file)) return sampleJsonl(file, rows);
  throw new Error(`cannot inspect ${file}: only .jsonl and .parquet are checked`);
}
