import {
  type Data,
  Field,
  List,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableToIPC,
  Utf8,
} from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { BufferRegions } from '../util/byte-ring.js';
import { writeFileAtomic, writeStreamAtomic } from '../util/fs.js';
import { readLines } from '../util/read-lines.js';
import {
  type ColumnChunk,
  type EncodedColumn,
  encodeColumns,
  STRING_LISTS,
  type TextPart,
} from './column-chunk.js';

const utf8Field = (name: string) => new Field(name, new Utf8(), false);
const MESSAGE = new Struct([utf8Field('role'), utf8Field('content')]);

/** Rows per record batch (and so per Parquet row group), keeping 32-bit string offsets far from overflow. */
const BATCH_ROWS = 4096;

/** Running sums (length n + 1) of a length or count array, computed once per array. */
const sums = new WeakMap<Int32Array, Float64Array>();
function runningSums(values: Int32Array): Float64Array {
  let out = sums.get(values);
  if (out === undefined) {
    out = new Float64Array(values.length + 1);
    for (let i = 0; i < values.length; i++) out[i + 1] = (out[i] as number) + (values[i] as number);
    sums.set(values, out);
  }
  return out;
}

/** `offsets` (its first `used` entries kept) with room for `more` entries after them. */
function room(offsets: Int32Array<ArrayBuffer>, used: number, more: number): Int32Array<ArrayBuffer> {
  if (used + more <= offsets.length) return offsets;
  const grown = new Int32Array(Math.max(2 * offsets.length, used + more));
  grown.set(offsets.subarray(0, used));
  return grown;
}

/**
 * A list column's offsets, appended to from per-row item counts. Its buffer grows to the largest
 * batch and is then reused batch after batch (`reset`).
 */
class ListOffsets {
  private offsets = new Int32Array(BATCH_ROWS + 1);
  private count = 0;

  append(counts: Int32Array, from: number, to: number): void {
    this.offsets = room(this.offsets, this.count + 1, to - from);
    for (let i = from; i < to; i++, this.count++)
      this.offsets[this.count + 1] = (this.offsets[this.count] as number) + (counts[i] as number);
  }

  data<T extends Data>(child: T, itemType: T['type']) {
    return makeData({
      type: new List(new Field('item', itemType, false)),
      length: this.count,
      nullCount: 0,
      valueOffsets: this.offsets.subarray(0, this.count + 1),
      child,
    });
  }

  reset(): void {
    this.count = 0;
  }
}

/** A UTF-8 column, appended to from text parts; reused batch after batch like `ListOffsets`. */
class Utf8Column {
  private readonly bytes = new BufferRegions();
  private offsets = new Int32Array(BATCH_ROWS + 1);
  private count = 0;

  /** Appends strings `from`..`to` of a part whose bytes are in `region` (a copy of them). */
  append(part: TextPart, region: Uint8Array, from: number, to: number): void {
    if (from === to) return;
    const sums = runningSums(part.lengths);
    const start = part.from + (sums[from] as number);
    const shift = this.bytes.length - (sums[from] as number);
    this.bytes.append(region.subarray(start, part.from + (sums[to] as number)));
    this.offsets = room(this.offsets, this.count + 1, to - from);
    for (let i = from; i < to; i++, this.count++)
      this.offsets[this.count + 1] = (sums[i + 1] as number) + shift;
  }

  data(): Data<Utf8> {
    return makeData({
      type: new Utf8(),
      length: this.count,
      nullCount: 0,
      valueOffsets: this.offsets.subarray(0, this.count + 1),
      data: this.bytes.view(),
    });
  }

  reset(): void {
    this.count = 0;
    this.bytes.begin();
  }
}

/** The item range of rows `from`..`to` in a list column. */
function itemRange(counts: Int32Array, from: number, to: number) {
  const at = runningSums(counts);
  return [at[from] as number, at[to] as number] as const;
}

/** One column of a batch under construction: appended to from chunks, taken as Arrow data, reset. */
interface ColumnBuilder {
  append(column: EncodedColumn, region: Uint8Array, from: number, to: number): void;
  data(): Data;
  reset(): void;
}

function encodedAs<K extends EncodedColumn['kind']>(column: EncodedColumn, kind: K) {
  if (column.kind !== kind)
    throw new Error(`a column chunk holds ${column.kind} data where ${kind} is expected`);
  return column as Extract<EncodedColumn, { kind: K }>;
}

/** The builder for a column, by its name (the same rule as `encodeColumns`). */
function columnBuilder(name: string): ColumnBuilder {
  if (name === 'messages') {
    const offsets = new ListOffsets();
    const roles = new Utf8Column();
    const contents = new Utf8Column();
    return {
      append(column, region, from, to) {
        const messages = encodedAs(column, 'messages');
        offsets.append(messages.counts, from, to);
        const [first, last] = itemRange(messages.counts, from, to);
        roles.append(messages.roles, region, first, last);
        contents.append(messages.contents, region, first, last);
      },
      data() {
        const roleData = roles.data();
        const struct = makeData({
          type: MESSAGE,
          length: roleData.length,
          nullCount: 0,
          children: [roleData, contents.data()],
        });
        return offsets.data(struct, MESSAGE);
      },
      reset() {
        offsets.reset();
        roles.reset();
        contents.reset();
      },
    };
  }
  if (STRING_LISTS.has(name)) {
    const offsets = new ListOffsets();
    const items = new Utf8Column();
    return {
      append(column, region, from, to) {
        const list = encodedAs(column, 'list');
        offsets.append(list.counts, from, to);
        items.append(list.items, region, ...itemRange(list.counts, from, to));
      },
      data: () => offsets.data(items.data(), new Utf8()),
      reset() {
        offsets.reset();
        items.reset();
      },
    };
  }
  const values = new Utf8Column();
  return {
    append: (column, region, from, to) => values.append(encodedAs(column, 'utf8').values, region, from, to),
    data: () => values.data(),
    reset: () => values.reset(),
  };
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

  constructor(names: readonly string[]) {
    ({ schema: this.schema, struct: this.struct } = schemaOf(names));
    this.columns = names.map(columnBuilder);
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

function schemaOf(names: readonly string[]) {
  const fields = names.map((name) =>
    name === 'messages'
      ? new Field(name, new List(new Field('item', MESSAGE, false)), false)
      : STRING_LISTS.has(name)
        ? new Field(name, new List(new Field('item', new Utf8(), false)), false)
        : utf8Field(name),
  );
  return { schema: new Schema(fields), struct: new Struct(fields) };
}

// The streaming writer closes a row group only at this many rows (its default is 1M rows: a
// whole split held in WebAssembly memory, which never shrinks, until the file closes).
const writerProperties = () =>
  new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.SNAPPY)
    .setMaxRowGroupSize(BATCH_ROWS)
    .build();

/**
 * Encodes rows as a Parquet file: apache-arrow record batches (built straight from UTF-8
 * buffers) → IPC stream → parquet-wasm with SNAPPY (STACK.md). `messages` is
 * `list<struct<role, content>>`, `images`/`choices` are `list<utf8>`, every other column `utf8`;
 * one row group per 4,096 rows.
 *
 * @example const bytes = encodeParquet([{ id: 'a', messages: [{ role: 'user', content: 'hi' }], images: [] }]);
 */
export function encodeParquet(
  rows: ReadonlyArray<Record<string, unknown>>,
  columns?: readonly string[],
): Uint8Array {
  const names = columns ?? Object.keys(rows[0] ?? {});
  const text = new BufferRegions();
  const chunk = encodeColumns(rows, names, new Int32Array(rows.length), text);
  const region = text.view();
  const batches: RecordBatch[] = [];
  for (let from = 0; from < Math.max(rows.length, 1); from += BATCH_ROWS) {
    // Each batch its own buffers: the table holds them all until it is encoded.
    const builder = new BatchBuilder(names);
    builder.append(chunk, region, from, Math.min(from + BATCH_ROWS, rows.length));
    batches.push(builder.batch());
  }
  const ipc = tableToIPC(new Table((batches[0] as RecordBatch).schema, batches), 'stream');
  return parquet.writeParquet(parquet.Table.fromIPCStream(ipc), writerProperties());
}

/** Writes rows to a Parquet file atomically; returns its size in bytes. */
export async function writeParquetFile(
  path: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  columns?: readonly string[],
): Promise<number> {
  const bytes = encodeParquet(rows, columns);
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
export function openParquetWriter(parquetPath: string, columns: readonly string[]) {
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
    const stream = await parquet.transformParquetStream(batches, writerProperties());
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      written += chunk.byteLength;
      await write(chunk);
    }
  });
  output.catch(() => {});
  const builder = new BatchBuilder(columns);
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
): Promise<number> {
  const writer = openParquetWriter(parquetPath, columns);
  for await (const line of readLines(jsonlPath)) writer.push(line);
  return writer.close();
}
