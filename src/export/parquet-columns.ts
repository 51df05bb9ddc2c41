import { Binary, type Data, Field, List, makeData, Schema, Struct, Utf8 } from 'apache-arrow';
import { BufferRegions } from '../util/byte-ring.js';
import { type EncodedColumn, STRING_LISTS, type TextPart } from './column-chunk.js';
import { huggingfaceMetadata, IMAGE_LISTS } from './hf-features.js';

/**
 * The Arrow columns of the Parquet files, built from column chunks (see `column-chunk.ts`):
 * `messages` list<struct<role, content>>, `images` list<struct<bytes: binary, path: utf8>> (the
 * `datasets` Image feature, its fields nullable as `Features.arrow_schema` declares them, so
 * `Features.from_arrow_schema` keeps the feature from the schema metadata), other string lists
 * list<utf8>, every other column utf8.
 */

/** Gives the bytes of an image file named by an `images` path, or undefined when there is none. */
export type ImageBytes = (path: string) => Uint8Array | undefined;

/** Rows per record batch (and so per Parquet row group), keeping 32-bit string offsets far from overflow. */
export const BATCH_ROWS = 4096;

const utf8Field = (name: string) => new Field(name, new Utf8(), false);
const MESSAGE = new Struct([utf8Field('role'), utf8Field('content')]);
/** `datasets`' `Image.pa_type`: struct<bytes: binary, path: string>, nullable fields. */
const IMAGE = new Struct([new Field('bytes', new Binary(), true), new Field('path', new Utf8(), true)]);

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

  data<T extends Data>(child: T, itemType: T['type'], nullableItems = false) {
    return makeData({
      type: new List(new Field('item', itemType, nullableItems)),
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
export interface ColumnBuilder {
  append(column: EncodedColumn, region: Uint8Array, from: number, to: number): void;
  data(): Data;
  reset(): void;
}

function encodedAs<K extends EncodedColumn['kind']>(column: EncodedColumn, kind: K) {
  if (column.kind !== kind)
    throw new Error(`a column chunk holds ${column.kind} data where ${kind} is expected`);
  return column as Extract<EncodedColumn, { kind: K }>;
}

/**
 * The builder for a column, by its name (the same rule as `encodeColumns`); `imageBytes` gives
 * the file bytes of an `images` path (undefined: the path alone is stored).
 */
export function columnBuilder(name: string, imageBytes?: ImageBytes): ColumnBuilder {
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
  if (IMAGE_LISTS.has(name)) return imageListBuilder(imageBytes);
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
 * A binary column with nulls, appended to value by value; reused batch after batch like
 * `Utf8Column`.
 */
class BinaryColumn {
  private readonly bytes = new BufferRegions();
  private offsets = new Int32Array(BATCH_ROWS + 1);
  private valid = new Uint8Array(BATCH_ROWS >> 3);
  private count = 0;
  private nulls = 0;

  append(value: Uint8Array | undefined): void {
    this.offsets = room(this.offsets, this.count + 1, 1);
    if (this.count >> 3 >= this.valid.length) {
      const grown = new Uint8Array(this.valid.length * 2);
      grown.set(this.valid);
      this.valid = grown;
    }
    const bit = 1 << (this.count & 7);
    if (value === undefined) {
      this.nulls++;
      this.valid[this.count >> 3] = (this.valid[this.count >> 3] as number) & ~bit;
    } else {
      this.bytes.append(value);
      this.valid[this.count >> 3] = (this.valid[this.count >> 3] as number) | bit;
    }
    this.count++;
    this.offsets[this.count] = this.bytes.length;
  }

  data(): Data<Binary> {
    return makeData({
      type: new Binary(),
      length: this.count,
      nullCount: this.nulls,
      nullBitmap: this.valid.subarray(0, (this.count + 7) >> 3),
      valueOffsets: this.offsets.subarray(0, this.count + 1),
      data: this.bytes.view(),
    });
  }

  reset(): void {
    this.count = 0;
    this.nulls = 0;
    this.valid.fill(0);
    this.bytes.begin();
  }
}

const decoder = new TextDecoder();

/** `images`: each path with its file's bytes (the `datasets` Image feature). */
function imageListBuilder(imageBytes: ImageBytes | undefined): ColumnBuilder {
  const offsets = new ListOffsets();
  const paths = new Utf8Column();
  const bytes = new BinaryColumn();
  return {
    append(column, region, from, to) {
      const list = encodedAs(column, 'list');
      offsets.append(list.counts, from, to);
      const [first, last] = itemRange(list.counts, from, to);
      paths.append(list.items, region, first, last);
      const at = runningSums(list.items.lengths);
      for (let i = first; i < last; i++) {
        const start = list.items.from + (at[i] as number);
        const path = decoder.decode(region.subarray(start, list.items.from + (at[i + 1] as number)));
        bytes.append(imageBytes?.(path));
      }
    },
    data() {
      const pathData = paths.data();
      const struct = makeData({
        type: IMAGE,
        length: pathData.length,
        nullCount: 0,
        children: [bytes.data(), pathData],
      });
      return offsets.data(struct, IMAGE, true);
    },
    reset() {
      offsets.reset();
      paths.reset();
      bytes.reset();
    },
  };
}

/**
 * The Arrow schema of the columns, with the `huggingface` metadata `datasets` reads the features
 * from, and the struct of a record batch.
 */
export function schemaOf(names: readonly string[]) {
  const fields = names.map((name) =>
    name === 'messages'
      ? new Field(name, new List(new Field('item', MESSAGE, false)), false)
      : IMAGE_LISTS.has(name)
        ? new Field(name, new List(new Field('item', IMAGE, true)), true)
        : STRING_LISTS.has(name)
          ? new Field(name, new List(new Field('item', new Utf8(), false)), false)
          : utf8Field(name),
  );
  return { schema: new Schema(fields, new Map([huggingfaceMetadata(names)])), struct: new Struct(fields) };
}
