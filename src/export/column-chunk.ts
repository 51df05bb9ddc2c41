/**
 * Training rows as column chunks: the strings of each Parquet column, encoded where the rows are
 * built (a worker thread) for the thread that writes the Parquet file (`parquet.ts`). Kept apart
 * from the Parquet writer so a worker never loads Arrow or the Parquet WebAssembly module.
 */

import type { ByteSink } from '../util/byte-ring.js';

/** Columns holding lists of strings; `messages` is list<struct<role, content>>; the rest utf8. */
export const STRING_LISTS: ReadonlySet<string> = new Set(['images', 'choices']);

/**
 * Strings as UTF-8 bytes, back to back, in the region the rows were written to (`from`..`to`
 * counted from the region's start), with each one's length in bytes (the column's offsets).
 * The thread writing the Parquet file copies these bytes into its column buffers: it neither
 * encodes strings nor receives them on its heap.
 */
export interface TextPart {
  from: number;
  to: number;
  lengths: Int32Array;
}

/** One column of consecutive rows, UTF-8 encoded (`counts`: items per row of a list column). */
export type EncodedColumn =
  | { kind: 'utf8'; values: TextPart }
  | { kind: 'list'; counts: Int32Array; items: TextPart }
  | { kind: 'messages'; counts: Int32Array; roles: TextPart; contents: TextPart };

/**
 * Consecutive rows as encoded columns, in the writer's column order: small arrays and positions
 * of text in a region of bytes (see `TextPart`), so the thread writing the Parquet file neither
 * parses JSON nor encodes strings. `jsonLengths` (each row's JSON line length in UTF-16 units) drive the
 * streaming writer's batch size rule.
 */
export interface ColumnChunk {
  rows: number;
  jsonLengths: Int32Array;
  columns: EncodedColumn[];
}

function textPart(values: readonly string[], out: ByteSink): TextPart {
  const lengths = new Int32Array(values.length);
  const from = out.length;
  values.forEach((value, i) => {
    lengths[i] = out.write(value);
  });
  return { from, to: out.length, lengths };
}

/**
 * A scalar cell as the text its JSON line reads back as (`String(JSON.parse(line)[name])`): a
 * string is itself, a missing value "undefined", anything else its JSON value as a string.
 */
function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  return String((JSON.parse(JSON.stringify({ value })) as { value?: unknown }).value);
}

/**
 * Encodes rows' columns: `messages` as list<struct<role, content>>, `images`/`choices` as
 * list<utf8>, every other column as utf8 text (its bytes appended to `out`), with each row's
 * JSON line length.
 *
 * @example encodeColumns([{ id: 'a', images: [] }], ['id', 'images'], Int32Array.of(22), new BufferRegions()).rows // 1
 */
export function encodeColumns(
  rows: ReadonlyArray<Record<string, unknown>>,
  names: readonly string[],
  jsonLengths: Int32Array,
  out: ByteSink,
): ColumnChunk {
  const columns = names.map((name): EncodedColumn => {
    if (name === 'messages') {
      const roles: string[] = [];
      const contents: string[] = [];
      const counts = new Int32Array(rows.length);
      rows.forEach((row, i) => {
        const messages = row[name] as Array<{ role: string; content: string }>;
        for (const message of messages) {
          roles.push(message.role);
          contents.push(message.content);
        }
        counts[i] = messages.length;
      });
      return { kind: 'messages', counts, roles: textPart(roles, out), contents: textPart(contents, out) };
    }
    if (STRING_LISTS.has(name)) {
      const flat: string[] = [];
      const counts = new Int32Array(rows.length);
      rows.forEach((row, i) => {
        const items = row[name] as string[];
        for (const item of items) flat.push(item);
        counts[i] = items.length;
      });
      return { kind: 'list', counts, items: textPart(flat, out) };
    }
    return {
      kind: 'utf8',
      values: textPart(
        rows.map((row) => cellText(row[name])),
        out,
      ),
    };
  });
  return {
    rows: rows.length,
    jsonLengths,
    columns,
  };
}
