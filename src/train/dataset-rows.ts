import { createReadStream, existsSync, openAsBlob } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { tableFromIPC, Vector } from 'apache-arrow';
import { rowShapeProblems } from '../export/row-shape.js';

/**
 * A streaming pass over every row of a training file, checking what ms-swift will do with it:
 *
 * - every required column is present (non-null) on every row;
 * - no message has empty content (an empty assistant target trains the model to say nothing);
 * - the `<image>` tags of a row's messages equal its `images` count (ms-swift fills the tags in
 *   order: one tag too many puts a real image on a quoted turn);
 * - every image opens, resolved as ms-swift does (`swift/template/vision_utils.py`): the path as
 *   given from the working directory, else joined to `ROOT_IMAGE_DIR`; URLs and data URIs are
 *   not fetched.
 *
 * jsonl is read line by line and parquet row group by row group, so a million rows need no more
 * memory than one row group; each distinct image file is opened once.
 */
export interface DatasetScan {
  file: string;
  rows: number;
  /** Columns present on every row. */
  columns: string[];
  images: { referenced: number; distinct: number; remote: number };
  /**
   * Problems grouped by reason, each naming the file, the reason, how many rows have it and the
   * first rows (1-based line for jsonl, row number for parquet).
   */
  problems: string[];
  /** Problems found in total (rows × reasons). */
  problemCount: number;
}

export interface ScanOptions {
  /** Columns every row must carry. */
  required: readonly string[];
  /** The directory `swift` runs in (relative image paths resolve from it first). */
  cwd: string;
  /** `ROOT_IMAGE_DIR` of the launch, if set. */
  rootImageDir?: string | undefined;
  /** Distinct reasons listed before the rest are only counted. @default 20 */
  maxProblems?: number;
}

export interface Row {
  messages?: unknown;
  images?: unknown;
  [column: string]: unknown;
}

const MAGIC: Array<[string, number[]]> = [
  ['png', [0x89, 0x50, 0x4e, 0x47]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  ['webp', [0x52, 0x49, 0x46, 0x46]],
  ['bmp', [0x42, 0x4d]],
];

/** ms-swift's resolution of an image path; undefined for URLs and data URIs (not checked). */
export function resolveImagePath(image: string, cwd: string, rootImageDir?: string): string | undefined {
  if (/^(https?:|data:)/i.test(image)) return undefined;
  const direct = path.resolve(cwd, image);
  if (existsSync(direct) || rootImageDir === undefined) return direct;
  return path.resolve(cwd, rootImageDir, image);
}

/** Why an image file cannot be opened as an image, or undefined when it can. */
async function imageProblem(file: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    if (bytesRead === 0) return `${file} is empty`;
    const known = MAGIC.some(([, bytes]) => bytes.every((byte, i) => head[i] === byte));
    return known ? undefined : `${file} is not a PNG, JPEG, GIF, WebP or BMP image`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${file} does not exist` : `${file} cannot be opened (${code ?? error})`;
  } finally {
    await handle?.close();
  }
}

/**
 * Scans every row of a `.jsonl` or `.parquet` training file. Throws only when the file cannot be
 * read at all; everything about its rows is reported in `problems`.
 *
 * @example
 * const scan = await scanDataset('out/q/export/sft/train.jsonl', { required: ['messages'], cwd: process.cwd(), rootImageDir: 'out/q/export' });
 * scan.problems // ['…/train.jsonl row 12: 2 <image> tags for 1 image']
 */
export async function scanDataset(file: string, options: ScanOptions): Promise<DatasetScan> {
  const maxProblems = options.maxProblems ?? 20;
  const scan: DatasetScan = {
    file,
    rows: 0,
    columns: [],
    images: { referenced: 0, distinct: 0, remote: 0 },
    problems: [],
    problemCount: 0,
  };
  let common: Set<string> | undefined;
  const checked = new Map<string, Promise<string | undefined>>();
  const byReason = new Map<string, { count: number; rows: string[] }>();
  let unlisted = 0;
  const problem = (where: string, reason: string) => {
    scan.problemCount++;
    let entry = byReason.get(reason);
    if (entry === undefined) {
      if (byReason.size >= maxProblems) {
        unlisted++;
        return;
      }
      entry = { count: 0, rows: [] };
      byReason.set(reason, entry);
    }
    entry.count++;
    if (entry.rows.length < 5) entry.rows.push(where);
  };
  const visit = async (row: Row, where: string) => {
    scan.rows++;
    const present = Object.keys(row).filter((key) => row[key] !== null && row[key] !== undefined);
    common = common === undefined ? new Set(present) : new Set(present.filter((key) => common?.has(key)));
    const missing = options.required.filter((column) => row[column] === null || row[column] === undefined);
    if (missing.length > 0) problem(where, `lacks column(s) ${missing.join(', ')}`);
    for (const reason of rowShapeProblems(row)) problem(where, reason);
    const images = Array.isArray(row.images) ? (row.images as unknown[]) : [];
    for (const image of images) {
      const name = typeof image === 'string' ? image : (image as { path?: unknown } | null)?.path;
      if (typeof name !== 'string' || name === '') {
        problem(where, 'an images entry is not a path');
        continue;
      }
      scan.images.referenced++;
      const resolved = resolveImagePath(name, options.cwd, options.rootImageDir);
      if (resolved === undefined) {
        scan.images.remote++;
        continue;
      }
      let result = checked.get(resolved);
      if (result === undefined) {
        result = imageProblem(resolved);
        checked.set(resolved, result);
      }
      const why = await result;
      if (why !== undefined) problem(where, `image "${name}": ${why}`);
    }
  };

  await forEachRow(file, visit, problem);
  for (const [reason, entry] of byReason) {
    const more = entry.count > entry.rows.length ? ', …' : '';
    scan.problems.push(
      `${file} ${entry.rows.join(', ')}${more}: ${reason}${entry.count > 1 ? ` (${entry.count} rows)` : ''}`,
    );
  }
  if (unlisted > 0) scan.problems.push(`${file}: ${unlisted} more problem(s) of other kinds`);
  scan.columns = [...(common ?? [])].sort();
  scan.images.distinct = checked.size;
  return scan;
}

/**
 * Calls `visit` for every JSON-object row of a jsonl or parquet training file, in order, with
 * where it is (`line N` for jsonl, `row N` for parquet); lines that are not JSON objects go to
 * `bad`. jsonl is streamed line by line, parquet one row group at a time.
 *
 * @example
 * await forEachRow('export/rl/train.jsonl', (row) => { n++; }, (where, why) => console.warn(where, why));
 */
export async function forEachRow(
  file: string,
  visit: (row: Row, where: string) => void | Promise<void>,
  bad: (where: string, reason: string) => void,
): Promise<void> {
  if (!existsSync(file)) throw new Error(`dataset not found: ${file}`);
  if (/\.jsonl$/i.test(file)) {
    const stream = createReadStream(file, { encoding: 'utf8' });
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    let lineNo = 0;
    try {
      for await (const line of lines) {
        lineNo++;
        if (line.trim() === '') continue;
        let row: unknown;
        try {
          row = JSON.parse(line);
        } catch {
          bad(`line ${lineNo}`, 'is not valid JSON');
          continue;
        }
        if (row === null || typeof row !== 'object' || Array.isArray(row)) {
          bad(`line ${lineNo}`, 'is not a JSON object');
          continue;
        }
        await visit(row as Row, `line ${lineNo}`);
      }
    } finally {
      lines.close();
      stream.destroy();
    }
  } else if (/\.parquet$/i.test(file)) {
    const parquet = await import('parquet-wasm');
    // A Blob backed by the file: row groups are read one at a time, never the whole file.
    const reader = await parquet.ParquetFile.fromFile(await openAsBlob(file));
    const groups = reader.metadata().numRowGroups();
    let rowNo = 0;
    for (let group = 0; group < groups; group++) {
      const table = tableFromIPC((await reader.read({ rowGroups: [group] })).intoIPCStream());
      for (const record of table) {
        rowNo++;
        const row = (record?.toJSON() ?? {}) as Row;
        for (const key of Object.keys(row)) row[key] = plain(row[key]);
        await visit(row, `row ${rowNo}`);
      }
    }
  } else {
    throw new Error(`cannot inspect ${file}: only .jsonl and .parquet are checked`);
  }
}

/** Arrow values (vectors, struct rows) as plain JSON values. */
function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Vector) return [...value].map(plain);
  if (ArrayBuffer.isView(value)) return value; // binary cells (embedded image bytes) stay bytes
  if (Array.isArray(value)) return value.map(plain);
  const json = (value as { toJSON?: () => unknown }).toJSON?.() ?? value;
  return Object.fromEntries(
    Object.entries(json as Record<string, unknown>).map(([key, inner]) => [key, plain(inner)]),
  );
}
