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
import { writeFileAtomic } from '../util/fs.js';
import { readLines } from '../util/read-lines.js';

const utf8Field = (name: string) => new Field(name, new Utf8(), false);
const MESSAGE = new Struct([utf8Field('role'), utf8Field('content')]);

/** Columns holding lists of strings; `messages` is list<struct<role, content>>; the rest utf8. */
const STRING_LISTS = new Set(['images', 'choices']);

/** Rows per record batch (and so per Parquet row group), keeping 32-bit string offsets far from overflow. */
const BATCH_ROWS = 4096;

/** UTF-8 column data from strings, encoded into one buffer (much faster than a builder). */
function utf8Data(values: readonly string[]): Data<Utf8> {
  const offsets = new Int32Array(values.length + 1);
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    total += Buffer.byteLength(values[i]!, 'utf8');
    offsets[i + 1] = total;
  }
  const bytes = Buffer.allocUnsafe(total);
  for (let i = 0; i < values.length; i++) bytes.write(values[i]!, offsets[i]!, 'utf8');
  return makeData({
    type: new Utf8(),
    length: values.length,
    nullCount: 0,
    valueOffsets: offsets,
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, total),
  });
}

function listData<T extends Data>(lengths: readonly number[], child: T, itemType: T['type']) {
  const offsets = new Int32Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) offsets[i + 1] = offsets[i]! + lengths[i]!;
  return makeData({
    type: new List(new Field('item', itemType, false)),
    length: lengths.length,
    nullCount: 0,
    valueOffsets: offsets,
    child,
  });
}

function columnData(name: string, values: readonly unknown[]): Data {
  if (name === 'messages') {
    const roles: string[] = [];
    const contents: string[] = [];
    const lengths = values.map((value) => {
      const messages = value as Array<{ role: string; content: string }>;
      for (const message of messages) {
        roles.push(message.role);
        contents.push(message.content);
      }
      return messages.length;
    });
    const struct = makeData({
      type: MESSAGE,
      length: roles.length,
      nullCount: 0,
      children: [utf8Data(roles), utf8Data(contents)],
    });
    return listData(lengths, struct, MESSAGE);
  }
  if (STRING_LISTS.has(name)) {
    const flat: string[] = [];
    const lengths = values.map((value) => {
      const items = value as string[];
      for (const item of items) flat.push(item);
      return items.length;
    });
    return listData(lengths, utf8Data(flat), new Utf8());
  }
  return utf8Data(values.map((value) => String(value)));
}

/**
 * Encodes rows as a Parquet file: apache-arrow record batches (built straight from buffers) →
 * IPC stream → parquet-wasm with SNAPPY (STACK.md). `messages` is `list<struct<role, content>>`,
 * `images`/`choices` are `list<utf8>`, every other column `utf8`; one row group per 4,096 rows.
 *
 * @example const bytes = encodeParquet([{ id: 'a', messages: [{ role: 'user', content: 'hi' }], images: [] }]);
 */
export function encodeParquet(
  rows: ReadonlyArray<Record<string, unknown>>,
  columns?: readonly string[],
): Uint8Array {
  const properties = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY).build();
  const ipc = encodeIpc(rows, columns ?? Object.keys(rows[0] ?? {}));
  return parquet.writeParquet(parquet.Table.fromIPCStream(ipc), properties);
}

/** Arrow IPC stream bytes of the rows (one record batch per 4,096 rows). */
function encodeIpc(rows: ReadonlyArray<Record<string, unknown>>, names: readonly string[]): Uint8Array {
  const fields = names.map((name) =>
    name === 'messages'
      ? new Field(name, new List(new Field('item', MESSAGE, false)), false)
      : STRING_LISTS.has(name)
        ? new Field(name, new List(new Field('item', new Utf8(), false)), false)
        : utf8Field(name),
  );
  const schema = new Schema(fields);
  const batches: RecordBatch[] = [];
  for (let start = 0; start < Math.max(rows.length, 1); start += BATCH_ROWS) {
    const slice = rows.slice(start, start + BATCH_ROWS);
    const children = names.map((name) =>
      columnData(
        name,
        slice.map((row) => row[name]),
      ),
    );
    const data = makeData({ type: new Struct(fields), length: slice.length, nullCount: 0, children });
    batches.push(new RecordBatch(schema, data));
  }
  return tableToIPC(new Table(schema, batches), 'stream');
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

/** Rows per streamed batch also stop at this many bytes of JSON, so huge rows stay bounded. */
const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * A Parquet file written from JSON lines pushed one at a time, batch by batch (≤ 4,096 rows or
 * ≈ 32 MB of JSON per row group) through parquet-wasm's streaming writer: memory stays bounded by
 * one batch whatever the file size, and the encoding runs while the caller produces the next
 * lines. The same lines give the same bytes as `writeParquetFromJsonl` over a file of them.
 *
 * @example const out = openParquetWriter('export/sft/train.parquet', SFT_COLUMNS); await out.push(line); await out.close();
 */
export function openParquetWriter(parquetPath: string, columns: readonly string[]) {
  let controller!: ReadableStreamDefaultController<unknown>;
  const batches = new ReadableStream({
    start(c) {
      controller = c;
    },
  });
  const properties = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY).build();
  // The encoded bytes are collected as the writer produces them (a failure surfaces on close).
  const output = (async () => {
    const stream = await parquet.transformParquetStream(batches, properties);
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    return Buffer.concat(chunks);
  })();
  output.catch(() => {});
  let rows: string[] = [];
  let bytes = 0;
  let any = false;
  const flush = () => {
    any = true;
    const wasm = parquet.Table.fromIPCStream(
      encodeIpc(
        rows.map((line) => JSON.parse(line) as Record<string, unknown>),
        columns,
      ),
    );
    for (const batch of wasm.recordBatches()) controller.enqueue(batch);
    rows = [];
    bytes = 0;
  };
  return {
    /** Appends one row given as its JSON line. */
    push(line: string): void {
      if (line.trim() === '') return;
      rows.push(line);
      bytes += line.length;
      if (rows.length >= BATCH_ROWS || bytes >= BATCH_BYTES) flush();
    },
    /** Encodes what is left, writes the file atomically and returns its size in bytes. */
    async close(): Promise<number> {
      // A file without rows still holds one empty row group: its schema.
      if (rows.length > 0 || !any) flush();
      controller.close();
      const data = await output;
      await writeFileAtomic(parquetPath, data);
      return data.byteLength;
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
