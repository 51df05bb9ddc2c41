import { makeData, RecordBatch, type Schema, type Struct, Table, tableToIPC } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { BufferRegions } from '../util/byte-ring.js';
import { writeFileAtomic, writeStreamAtomic } from '../util/fs.js';
import { readLines } from '../util/read-lines.js';
import { type ColumnChunk, type EncodedColumn, encodeColumns } from './column-chunk.js';
import { huggingfaceMetadata } from './hf-features.js';
import {
  BATCH_ROWS,
  type ColumnBuilder,
  columnBuilder,
  type ImageBytes,
  schemaOf,
} from './parquet-columns.js';

export type { ImageBytes } from './parquet-columns.js';

/** How a Parquet file's `images` column gets its image bytes. */
export interface ParquetImageOptions {
  /** The bytes of the file an `images` path names; without it only the paths are stored. */
  imageBytes?: ImageBytes;
}

/**
 * One batch's columns under construction: rows are appended chunk range by chunk range (the
 * strings are encoded into the column buffers at once, so no chunk is held until the batch is
 * full), then taken as a record batch; `reset` starts the next batch in the same buffers.
 */
class BatchBuilder {
  readonly schema: Schema;
  private readonly struct: Struct;
  private readonly columns: ColumnBuilder[];
  rows = 0;

  constructor(names: readonly string[], imageBytes?: ImageBytes) {
    ({ schema: this.schema, struct: this.struct } = schemaOf(names));
    this.columns = names.map((name) => columnBuilder(name, imageBytes));
  }

  /** Appends rows `from`..`to` of a chunk encoded with these columns (its text in `region`). */
  append(chunk: ColumnChunk, region: Uint8Array, from: number, to: number): void {
    this.columns.forEach((column, index) => {
      column.append(chunk.columns[index] as EncodedColumn, region, from, to);
    });
    this.rows += to - from;
  }

  /** The rows appended since the last reset, as one record batch (valid until the next reset). */
  batch(): RecordBatch {
    const children = this.columns.map((column) => column.data());
    return new RecordBatch(
      this.schema,
      makeData({ type: this.struct, length: this.rows, nullCount: 0, children }),
    );
  }

  reset(): void {
    for (const column of this.columns) column.reset();
    this.rows = 0;
  }
}

// The streaming writer closes a row group only at this many rows (its default is 1M rows: a
// whole split held in WebAssembly memory, which never shrinks, until the file closes).
// The `huggingface` features also go to the file's own key-value metadata (the Arrow schema's
// metadata is stored only inside ARROW:schema), where readers other than Arrow's look.
const writerProperties = (columns: readonly string[]) =>
  new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.SNAPPY)
    .setMaxRowGroupSize(BATCH_ROWS)
    .setKeyValueMetadata(new Map([huggingfaceMetadata(columns)]))
    .build();

/**
 * Encodes rows as a Parquet file: apache-arrow record batches (built straight from UTF-8
 * buffers) → IPC stream → parquet-wasm with SNAPPY (STACK.md). `messages` is
 * `list<struct<role, content>>`, `images` is `list<struct<bytes, path>>` (the `datasets` Image
 * feature: each path with its file's bytes from `options.imageBytes`, see `parquet-columns.ts`),
 * `choices` is `list<utf8>`, every other column `utf8`; the schema carries the `huggingface` features;
 * one row group per 4,096 rows.
 *
 * @example const bytes = encodeParquet([{ id: 'a', messages: [{ role: 'user', content: 'hi' }], images: [] }]);
 */
export function encodeParquet(
  rows: ReadonlyArray<Record<string, unknown>>,
  columns?: readonly string[],
  options: ParquetImageOptions = {},
): Uint8Array {
  const names = columns ?? Object.keys(rows[0] ?? {});
  const text = new BufferRegions();
  const chunk = encodeColumns(rows, names, new Int32Array(rows.length), text);
  const region = text.view();
  const batches: RecordBatch[] = [];
  for (let from = 0; from < Math.max(rows.length, 1); from += BATCH_ROWS) {
    // Each batch its own buffers: the table holds them all until it is encoded.
    const builder = new BatchBuilder(names, options.imageBytes);
    builder.append(chunk, region, from, Math.min(from + BATCH_ROWS, rows.length));
    batches.push(builder.batch());
  }
  const ipc = tableToIPC(new Table((batches[0] as RecordBatch).schema, batches), 'stream');
  return parquet.writeParquet(parquet.Table.fromIPCStream(ipc), writerProperties(names));
}

/** Writes rows to a Parquet file atomically; returns its size in bytes. */
export async function writeParquetFile(
  path: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  columns?: readonly string[],
  options: ParquetImageOptions = {},
): Promise<number> {
  const bytes = encodeParquet(rows, columns, options);
  await writeFileAtomic(path, bytes);
  return bytes.byteLength;
}

/** Rows per streamed batch also stop at this many UTF-16 units of JSON, so huge rows stay bounded. */
const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * A Parquet file written from rows pushed as they come (JSON lines, or column chunks encoded on
 * another thread), batch by batch (≤ 4,096 rows or ≈ 32 MB of JSON per batch) through
 * parquet-wasm's streaming writer, which closes a row group every 4,096 rows: memory stays
 * bounded by one row group whatever the file size, and the encoding runs while the caller
 * produces the next rows. The same rows give the same
 * bytes whichever way they are pushed, and however chunks cut them.
 *
 * @example const out = openParquetWriter('export/sft/train.parquet', SFT_COLUMNS); out.push(line); await out.close();
 */
export function openParquetWriter(
  parquetPath: string,
  columns: readonly string[],
  options: ParquetImageOptions = {},
) {
  let controller!: ReadableStreamDefaultController<unknown>;
  const batches = new ReadableStream({
    start(c) {
      controller = c;
    },
  });
  // The encoded bytes go to a temporary file beside the target as the writer produces them,
  // renamed into place once the stream ends (a failure surfaces on close).
  let written = 0;
  const output = writeStreamAtomic(parquetPath, async (write) => {
    const stream = await parquet.transformParquetStream(batches, writerProperties(columns));
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      written += chunk.byteLength;
      await write(chunk);
    }
  });
  output.catch(() => {});
  const builder = new BatchBuilder(columns, options.imageBytes);
  let bytes = 0;
  let any = false;
  const flush = () => {
    any = true;
    const ipc = tableToIPC(new Table(builder.schema, [builder.batch()]), 'stream');
    for (const batch of parquet.Table.fromIPCStream(ipc).recordBatches()) controller.enqueue(batch);
    builder.reset();
    bytes = 0;
  };
  const pushChunk = (chunk: ColumnChunk, region: Uint8Array): void => {
    let from = 0;
    for (let row = 0; row < chunk.rows; row++) {
      bytes += chunk.jsonLengths[row] as number;
      if (builder.rows + (row + 1 - from) >= BATCH_ROWS || bytes >= BATCH_BYTES) {
        builder.append(chunk, region, from, row + 1);
        from = row + 1;
        flush();
      }
    }
    if (from < chunk.rows) builder.append(chunk, region, from, chunk.rows);
  };
  const text = new BufferRegions();
  return {
    /** Appends one row given as its JSON line (blank lines are skipped). */
    push(line: string): void {
      if (line.trim() === '') return;
      const row = JSON.parse(line) as Record<string, unknown>;
      text.begin();
      const chunk = encodeColumns([row], columns, Int32Array.of(line.length), text);
      pushChunk(chunk, text.view());
    },
    /**
     * Appends the rows of a chunk encoded with this writer's columns (see `encodeColumns`), its
     * text in `region` (copied before this returns).
     */
    pushChunk,
    /** Gives up the file: nothing is written, the temporary file is removed. */
    async abort(): Promise<void> {
      try {
        controller.error(new Error('Parquet writer aborted'));
      } catch {
        // the stream has already ended
      }
      await output.catch(() => {});
    },
    /** Encodes what is left, writes the file atomically and returns its size in bytes. */
    async close(): Promise<number> {
      // A file without rows still holds one empty row group: its schema.
      if (builder.rows > 0 || !any) flush();
      controller.close();
      await output;
      return written;
    },
  };
}

/**
 * Converts a JSON Lines file to Parquet (see `openParquetWriter`). Returns the Parquet size in bytes.
 *
 * @example await writeParquetFromJsonl('export/rl/train.jsonl', 'export/rl/train.parquet', RL_COLUMNS);
 */
export async function writeParquetFromJsonl(
  jsonlPath: string,
  parquetPath: string,
  columns: readonly string[],
  options: ParquetImageOptions = {},
): Promise<number> {
  const writer = openParquetWriter(parquetPath, columns, options);
  for await (const line of readLines(jsonlPath)) writer.push(line);
  return writer.close();
}
