import type { MemorySnapshot } from './memory.js';

/**
 * Memory snapshots on disk as the first snapshot plus one delta per session (`delta-v1`),
 * instead of every session-end state in full: a user's later snapshots repeat nearly all of the
 * earlier ones (≈1.4 MB a user at PersonaVLM scale, ~10× less as deltas).
 *
 * A delta lists, per entry list (semantic, episodic, procedural), the ids removed, the entries
 * added or changed (a changed entry keeps its position), and the full id order only when the
 * list was reordered; `core` and `personality` when they changed. Decoding rebuilds every
 * snapshot exactly (same values, same key order), so every consumer sees what it saw before.
 */
export const SNAPSHOT_ENCODING = 'delta-v1';

type ListName = 'semantic' | 'episodic' | 'procedural';
const LISTS: readonly ListName[] = ['semantic', 'episodic', 'procedural'];

interface ListDelta {
  remove?: string[];
  put?: Array<{ id: string }>;
  order?: string[];
}

export interface SnapshotDelta {
  time: string;
  sessionIndex: number;
  core?: MemorySnapshot['core'];
  personality?: MemorySnapshot['personality'];
  semantic?: ListDelta;
  episodic?: ListDelta;
  procedural?: ListDelta;
}

export interface EncodedSnapshots {
  encoding: typeof SNAPSHOT_ENCODING;
  base: MemorySnapshot;
  deltas: SnapshotDelta[];
}

/** True for the on-disk delta form (as opposed to a plain list of snapshots). */
export function isEncodedSnapshots(value: unknown): value is EncodedSnapshots {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value as { encoding?: unknown }).encoding === SNAPSHOT_ENCODING
  );
}

/**
 * Equal as JSON values, key order included, without serializing either (this ran for every entry
 * of every snapshot). Values JSON would write alike but that differ here (an undefined field
 * against a missing one, NaN) count as changed: a delta entry more, decoded exactly all the same.
 */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => same(item, other[i]));
  }
  const left = Object.keys(a);
  const right = Object.keys(b);
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) {
    const key = left[i] as string;
    if (key !== right[i] || !same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

function listDelta(
  before: ReadonlyArray<{ id: string }>,
  after: ReadonlyArray<{ id: string }>,
): ListDelta | undefined {
  const old = new Map(before.map((entry) => [entry.id, entry]));
  const ids = new Set(after.map((entry) => entry.id));
  const remove = before.filter((entry) => !ids.has(entry.id)).map((entry) => entry.id);
  const put = after.filter((entry) => {
    const previous = old.get(entry.id);
    return previous === undefined || !same(previous, entry);
  });
  const delta: ListDelta = {};
  if (remove.length > 0) delta.remove = remove;
  if (put.length > 0) delta.put = put;
  const rebuilt = applyList(before, delta);
  if (rebuilt.length !== after.length || rebuilt.some((entry, i) => entry.id !== after[i]?.id)) {
    delta.order = after.map((entry) => entry.id);
  }
  return delta.remove === undefined && delta.put === undefined && delta.order === undefined
    ? undefined
    : delta;
}

function applyList<T extends { id: string }>(before: readonly T[], delta: ListDelta | undefined): T[] {
  if (delta === undefined) return [...before];
  const removed = new Set(delta.remove ?? []);
  const put = new Map((delta.put ?? []).map((entry) => [entry.id, entry as T]));
  const out: T[] = [];
  for (const entry of before) {
    if (removed.has(entry.id)) continue;
    const changed = put.get(entry.id);
    if (changed !== undefined) {
      out.push(changed);
      put.delete(entry.id);
    } else out.push(entry);
  }
  for (const entry of put.values()) out.push(entry);
  if (delta.order === undefined) return out;
  const byId = new Map(out.map((entry) => [entry.id, entry]));
  return delta.order.map((id) => {
    const entry = byId.get(id);
    if (entry === undefined) throw new Error(`memory snapshot delta orders unknown entry "${id}"`);
    return entry;
  });
}

/**
 * Snapshots → the delta form written to `memory/memory.jsonl`.
 *
 * @example decodeSnapshots(encodeSnapshots(record.snapshots)) // deep-equals record.snapshots
 */
export function encodeSnapshots(snapshots: readonly MemorySnapshot[]): EncodedSnapshots {
  const [base, ...rest] = snapshots;
  if (base === undefined) throw new Error('no snapshot to encode');
  const deltas: SnapshotDelta[] = [];
  let previous = base;
  for (const snapshot of rest) {
    const delta: SnapshotDelta = { time: snapshot.time, sessionIndex: snapshot.sessionIndex };
    if (!same(previous.core, snapshot.core)) delta.core = snapshot.core;
    if (!same(previous.personality, snapshot.personality)) delta.personality = snapshot.personality;
    for (const list of LISTS) {
      const change = listDelta(previous[list], snapshot[list]);
      if (change !== undefined) delta[list] = change;
    }
    deltas.push(delta);
    previous = snapshot;
  }
  return { encoding: SNAPSHOT_ENCODING, base, deltas };
}

/** The delta form → every snapshot in full, in the key order the schema gives them. */
export function decodeSnapshots(encoded: EncodedSnapshots): MemorySnapshot[] {
  const out: MemorySnapshot[] = [encoded.base];
  let previous = encoded.base;
  for (const delta of encoded.deltas) {
    const next: MemorySnapshot = {
      time: delta.time,
      sessionIndex: delta.sessionIndex,
      core: delta.core ?? previous.core,
      semantic: applyList(previous.semantic, delta.semantic),
      episodic: applyList(previous.episodic, delta.episodic),
      procedural: applyList(previous.procedural, delta.procedural),
      personality: delta.personality ?? previous.personality,
    };
    out.push(next);
    previous = next;
  }
  return out;
}

/**
 * A raw `memory.jsonl` record with its snapshots in full, whichever form the file holds (readers
 * that skip schema validation call this; `UserMemory.parse` does it too).
 */
export function withDecodedSnapshots<T extends { snapshots?: unknown }>(record: T): T {
  if (!isEncodedSnapshots(record.snapshots)) return record;
  return { ...record, snapshots: decodeSnapshots(record.snapshots) };
}

/**
 * Structural sharing for the bulky parts of a memory record (`shared-v1`): every object or array
 * whose encoded JSON is at least `MIN_SHARED` characters is stored once in `nodes` and referred
 * to as `{"$pf": i}` wherever it occurs again. Trace inputs repeat the same turns (a turn's
 * context window, the session's turns for each session-end task, the reply of the next step) and
 * successive PersonaTree states share most of their subtrees: each is written once.
 * Bottom-up: a node's key is its JSON with its children already replaced by references, so equal
 * subtrees get equal keys without serializing anything twice.
 */
export const SHARED_ENCODING = 'shared-v1';
const MIN_SHARED = 48;
const REF = '$pf';
/** A wide object (a flattened PersonaTree state: hundreds of path → value leaves) split into chunks. */
const CHUNKED = '$pfc';
const WIDE = 24;

/** Content-defined chunk boundaries: an inserted or changed key only changes its own chunk. */
function chunkKeys(keys: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  for (const key of keys) {
    current.push(key);
    let hash = 2166136261;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619);
    if ((hash >>> 0) % 8 === 0 || current.length >= 32) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export interface SharedEncoded {
  encoding: typeof SHARED_ENCODING;
  nodes: unknown[];
  root: unknown;
}

export function isSharedEncoded(value: unknown): value is SharedEncoded {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (value as { encoding?: unknown }).encoding === SHARED_ENCODING
  );
}

/** Encodes a JSON value with shared subtrees. @example decodeShared(encodeShared(x)) // deep-equals x */
export function encodeShared(value: unknown): SharedEncoded {
  const nodes: unknown[] = [];
  const index = new Map<string, number>();
  const visit = (node: unknown, chunk = false): { value: unknown; json: string } => {
    if (node === null || typeof node !== 'object')
      return { value: node, json: JSON.stringify(node) ?? 'null' };
    let encoded: unknown;
    let json: string;
    if (Array.isArray(node)) {
      const parts = node.map((child) => visit(child));
      encoded = parts.map((part) => part.value);
      json = `[${parts.map((part) => part.json).join(',')}]`;
    } else if (!chunk && Object.keys(node).length >= WIDE) {
      const record = node as Record<string, unknown>;
      // A chunk is stored as a plain object (never chunked again).
      const chunks = chunkKeys(Object.keys(record).filter((key) => record[key] !== undefined)).map((keys) =>
        visit(Object.fromEntries(keys.map((key) => [key, record[key]])), true),
      );
      encoded = { [CHUNKED]: chunks.map((chunk) => chunk.value) };
      json = `{"${CHUNKED}":[${chunks.map((chunk) => chunk.json).join(',')}]}`;
    } else {
      const out: Record<string, unknown> = {};
      const fields: string[] = [];
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        if (child === undefined) continue;
        const part = visit(child);
        out[key] = part.value;
        fields.push(`${JSON.stringify(key)}:${part.json}`);
      }
      encoded = out;
      json = `{${fields.join(',')}}`;
    }
    if (json.length < MIN_SHARED) return { value: encoded, json };
    let at = index.get(json);
    if (at === undefined) {
      at = nodes.length;
      nodes.push(encoded);
      index.set(json, at);
    }
    const ref = `{"${REF}":${at}}`;
    return { value: { [REF]: at }, json: ref };
  };
  return { encoding: SHARED_ENCODING, nodes, root: visit(value).value };
}

/** Rebuilds the value; shared subtrees become the same object (readers never mutate records). */
export function decodeShared(encoded: SharedEncoded): unknown {
  const done = new Map<number, unknown>();
  const restore = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(restore);
    const record = node as Record<string, unknown>;
    const ref = record[REF];
    if (typeof ref === 'number' && Object.keys(record).length === 1) {
      let value = done.get(ref);
      if (value === undefined) {
        value = restore(encoded.nodes[ref]);
        done.set(ref, value);
      }
      return value;
    }
    const chunks = record[CHUNKED];
    if (Array.isArray(chunks) && Object.keys(record).length === 1) {
      const merged: Record<string, unknown> = {};
      for (const chunk of chunks) Object.assign(merged, restore(chunk) as Record<string, unknown>);
      return merged;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) out[key] = restore(child);
    return out;
  };
  return restore(encoded.root);
}

/** The record fields stored shared: everything bulky (the small envelope stays readable). */
const SHARED_FIELDS = ['snapshots', 'traces', 'tree', 'trajectories'] as const;

/**
 * A memory record in the `shared-v1` storage form (written by earlier versions, still read):
 * snapshots as deltas, then the bulky fields with shared subtrees under `shared`.
 * `decodeSharedMemoryRecord` undoes it; memory-record-codec.ts picks the decoder.
 */
export function encodeSharedMemoryRecord<T extends { snapshots: MemorySnapshot[] }>(
  record: T,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...record, snapshots: encodeSnapshots(record.snapshots) };
  const bulky: Record<string, unknown> = {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((SHARED_FIELDS as readonly string[]).includes(key)) bulky[key] = value;
    else out[key] = value;
  }
  out.shared = encodeShared(bulky);
  return out;
}

/** A `shared-v1` (or delta-v1, or full) record → the full record. */
export function decodeSharedMemoryRecord<T extends Record<string, unknown>>(record: T): T {
  let out: Record<string, unknown> = record;
  if (isSharedEncoded(record.shared)) {
    const { shared, ...rest } = record;
    const bulky = decodeShared(shared) as Record<string, unknown>;
    // The schema's key order: envelope, then the bulky fields in their place.
    out = {};
    for (const key of ['schemaVersion', 'userId', 'offline', ...SHARED_FIELDS, 'stats']) {
      if (key in rest) out[key] = rest[key];
      else if (key in bulky) out[key] = bulky[key];
    }
    for (const [key, value] of Object.entries(rest)) if (!(key in out)) out[key] = value;
  }
  return withDecodedSnapshots(out as { snapshots?: unknown }) as unknown as T;
}
