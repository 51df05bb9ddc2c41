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

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

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
