import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { MemorySnapshot } from './memory.js';
import { decodeSnapshots, type EncodedSnapshots, encodeSnapshots } from './snapshot-codec.js';
import { decodeTraces, encodeTraces, hasDelta, type TurnShape } from './trace-codec.js';

/**
 * A memory record's bulky fields stored packed (`packed-v2`): each of `snapshots`, `traces`,
 * `tree` and `trajectories` becomes the base64 of a brotli stream of its JSON, after two
 * lossless steps that remove what the record repeats by construction:
 *
 * - snapshots as the first state plus per-session deltas (`delta-v1`, snapshot-codec.ts);
 * - every dialogue turn a trace input quotes (a turn's context window, the session's turns for
 *   each session-end task, the chunk of a tree step) stored once in a turn table, referred to by
 *   position; a flat string record (the PersonaTree state of a `tree_ops` input) stored as the
 *   change from the same input of the task's previous trace.
 *
 * Compression takes what is left (a gold target's `text` beside its `value`, memory lines quoted
 * again in a trajectory's `retrievedBlock`). Fields are packed separately, so a reader that needs
 * only the snapshots (the report) decodes only them. Decoding gives the record back exactly: same
 * values, same key order; turns quoted twice become the same object (readers never mutate).
 * `packed-v2` adds `index`, the record's catalogue (trace ids and tasks, trajectory question
 * ids): `packed-v1` records (without it) are still read.
 */
export const PACKED_ENCODING = 'packed-v2';
/** The first packed form: the same fields without `index`. Still read. */
export const PACKED_V1 = 'packed-v1';

export const PACKED_FIELDS = ['snapshots', 'traces', 'tree', 'trajectories'] as const;
export type PackedField = (typeof PACKED_FIELDS)[number];

export interface PackedRecord {
  encoding: typeof PACKED_ENCODING | typeof PACKED_V1;
  snapshots: string;
  traces: string;
  tree: string;
  trajectories: string;
  /** `packed-v2`: the record's catalogue (see `MemoryIndex`), packed like the fields. */
  index?: string;
}

/**
 * What a record holds, without its content (`packed-v2`): each trace's id and task, each
 * trajectory's question id, in record order. A reader that only names the rows a record yields
 * (export's first pass) reads this instead of decoding the traces.
 */
export interface MemoryIndex {
  traces: Array<[id: string, task: string]>;
  trajectories: string[];
}

export function isPacked(value: unknown): value is PackedRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const encoding = (value as { encoding?: unknown }).encoding;
  return encoding === PACKED_ENCODING || encoding === PACKED_V1;
}

/** Brotli quality 2 with a 4 MB window: ~7× smaller than the JSON at a fraction of its serialization time. */
const BROTLI = { quality: 2, window: 22 };

function compress(json: string): string {
  return brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI.quality,
      [constants.BROTLI_PARAM_LGWIN]: BROTLI.window,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  }).toString('base64');
}

function decompress(data: string, field: string, encoding: string = PACKED_ENCODING): unknown {
  try {
    return JSON.parse(decompressText(data));
  } catch (error) {
    throw new Error(
      `memory record field "${field}" (${encoding}) cannot be decoded: ${(error as Error).message}`,
    );
  }
}

function decompressText(data: string): string {
  return brotliDecompressSync(Buffer.from(data, 'base64')).toString('utf8');
}

/**
 * The bulky fields of a memory record → their packed form.
 *
 * @example unpackFields(packFields(record)) // deep-equals the four fields of record, key order included
 */
export function packFields(record: {
  snapshots: readonly MemorySnapshot[];
  traces: ReadonlyArray<Record<string, unknown>>;
  tree: unknown;
  trajectories: unknown;
}): PackedRecord {
  return {
    encoding: PACKED_ENCODING,
    snapshots: compress(JSON.stringify(encodeSnapshots(record.snapshots))),
    traces: compress(tracesText(encodeTraces(record.traces))),
    tree: compress(JSON.stringify(record.tree)),
    trajectories: compress(JSON.stringify(record.trajectories)),
    index: compress(JSON.stringify(indexOf(record))),
  };
}

function indexOf(record: {
  traces: ReadonlyArray<Record<string, unknown>>;
  trajectories: unknown;
}): MemoryIndex {
  return {
    traces: record.traces.map((trace) => [String(trace.id), String(trace.task)]),
    trajectories: (record.trajectories as Array<{ qaId: unknown }>).map((trajectory) =>
      String(trajectory.qaId),
    ),
  };
}

/**
 * The catalogue of a `packed-v2` record (null for older forms, which hold none).
 *
 * @example readPackedIndex(JSON.parse(line).packed)?.traces.length
 */
export function readPackedIndex(packed: unknown): MemoryIndex | null {
  if (!isPacked(packed) || typeof packed.index !== 'string') return null;
  const index = decompress(packed.index, 'index') as MemoryIndex;
  if (!Array.isArray(index?.traces) || !Array.isArray(index.trajectories))
    throw new Error(`memory record field "index" (${PACKED_ENCODING}) is not a catalogue`);
  return index;
}

/**
 * `packed-v2` traces as text: the turn table's JSON on the first line, then one stored trace's
 * JSON per line (JSON has no raw newlines), so a reader can parse only the traces it needs.
 */
function tracesText(encoded: { turns: TurnShape[]; traces: unknown[] }): string {
  return [JSON.stringify(encoded.turns), ...encoded.traces.map((trace) => JSON.stringify(trace))].join('\n');
}

export interface UnpackOptions {
  /**
   * Traces to decode (`packed-v2`): the others are left as `{ id, task }` (from the index), so a
   * reader that builds from a few traces skips parsing the rest. When a wanted trace stores a
   * tree state as the change from its task's previous one, the task's traces up to its last
   * wanted one are decoded too.
   * @default every trace
   */
  wantTrace?: (id: string, task: string) => boolean;
}

/** Decodes the packed fields asked for (all by default), in `PACKED_FIELDS` order. */
export function unpackFields(
  packed: PackedRecord,
  fields: readonly PackedField[] = PACKED_FIELDS,
  options: UnpackOptions = {},
): Partial<Record<PackedField, unknown>> {
  const out: Partial<Record<PackedField, unknown>> = {};
  for (const field of PACKED_FIELDS) {
    if (!fields.includes(field)) continue;
    if (typeof packed[field] !== 'string')
      throw new Error(`memory record (${packed.encoding}) has no "${field}"`);
    if (field === 'traces') {
      out.traces = unpackTraces(packed, options.wantTrace);
      continue;
    }
    const value = decompress(packed[field], field, packed.encoding);
    if (field === 'snapshots') out.snapshots = decodeSnapshots(value as EncodedSnapshots);
    else out[field] = value;
  }
  return out;
}

function indexMismatch(position: number, id: string, task: string, encoding: string): Error {
  return new Error(
    `memory record (${encoding}) indexes trace ${position} as ${task} "${id}" and holds another: the index disagrees with its traces`,
  );
}

function unpackTraces(packed: PackedRecord, wantTrace: UnpackOptions['wantTrace']): unknown[] {
  if (packed.encoding === PACKED_V1)
    return decodeTraces(
      decompress(packed.traces, 'traces', packed.encoding) as {
        turns: TurnShape[];
        traces: Array<Record<string, unknown>>;
      },
    );
  // Undecodable data names the field, like every packed field (see `decompress`).
  const decoded = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw new Error(
        `memory record field "traces" (${packed.encoding}) cannot be decoded: ${(error as Error).message}`,
      );
    }
  };
  // The text stays bytes: only the lines of decoded traces become strings.
  const raw = decoded(() => brotliDecompressSync(Buffer.from(packed.traces, 'base64')));
  const starts = [0];
  for (let at = raw.indexOf(0x0a); at !== -1; at = raw.indexOf(0x0a, at + 1)) starts.push(at + 1);
  const end = (line: number) => (line + 1 < starts.length ? (starts[line + 1] as number) - 1 : raw.length);
  const text = (line: number) => raw.toString('utf8', starts[line], end(line));
  const turns = decoded(() => JSON.parse(text(0)) as TurnShape[]);
  const count = starts.length - 1;
  const parse = (i: number) => decoded(() => JSON.parse(text(i + 1)) as Record<string, unknown>);
  // Every reader checks the traces it parses against the record's index, so a record whose
  // index lies fails wherever it is read (validate quarantines it), not only in export.
  const index = readPackedIndex(packed);
  if (index !== null && index.traces.length !== count)
    throw new Error(
      `memory record (${packed.encoding}) indexes ${index.traces.length} traces and holds ${count}`,
    );
  const checked = (i: number) => {
    const trace = parse(i);
    if (index === null) return trace;
    const [id, task] = index.traces[i] as [string, string];
    if (trace.id !== id || trace.task !== task) throw indexMismatch(i, id, task, packed.encoding);
    return trace;
  };
  if (index === null || wantTrace === undefined)
    return decodeTraces({ turns, traces: Array.from({ length: count }, (_, i) => checked(i)) });
  const parsed = new Map<number, Record<string, unknown>>();
  const decode = (i: number) => parsed.set(i, checked(i));
  // The wanted traces; per task whose wanted traces hold a delta, the position of its last one.
  const chained = new Map<string, number>();
  index.traces.forEach(([id, task], i) => {
    if (wantTrace?.(id, task) !== true) return;
    decode(i);
    if (chained.has(task) || hasDelta(parsed.get(i) as Record<string, unknown>)) chained.set(task, i);
  });
  // A delta applies to its task's previous tree state: those tasks are decoded from their start.
  index.traces.forEach(([, task], i) => {
    if (i <= (chained.get(task) ?? -1) && !parsed.has(i)) decode(i);
  });
  return decodeTraces({
    turns,
    traces: index.traces.map(([id, task], i) => {
      const trace = parsed.get(i);
      if (trace !== undefined) return trace;
      // Named from the index, checked against the line's start (a stored trace begins with its id and task).
      const prefix = `{"id":${JSON.stringify(id)},"task":${JSON.stringify(task)},`;
      const from = starts[i + 1] as number;
      const to = Math.min(end(i + 1), from + Buffer.byteLength(prefix));
      if (raw.toString('utf8', from, to) !== prefix) throw indexMismatch(i, id, task, packed.encoding);
      return { id, task };
    }),
  });
}
