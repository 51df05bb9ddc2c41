import type { UserMemory } from './memory.js';
import {
  isPacked,
  PACKED_FIELDS,
  type PackedField,
  packFields,
  type UnpackOptions,
  unpackFields,
} from './memory-pack.js';
import { decodeSharedMemoryRecord } from './snapshot-codec.js';

/**
 * How `memory/memory.jsonl` stores a record, and the one place every reader decodes it.
 *
 * Written: `packed-v2` (memory-pack.ts): the envelope (`schemaVersion`, `userId`, `offline`,
 * `stats`) stays plain JSON, the bulky fields go under `packed`. Read: that, and every earlier
 * form — `packed-v1` (no index), `shared-v1` (shared subtrees), `delta-v1` (snapshot deltas), full records.
 * `UserMemory.parse` decodes through `decodeUserMemoryRecord`; raw readers that skip the schema
 * (export, report) call it, or `decodeUserMemoryFields` for the fields they use.
 */

/** The schema's key order: what decoding restores. */
const KEY_ORDER = ['schemaVersion', 'userId', 'offline', ...PACKED_FIELDS, 'stats'] as const;

/**
 * A full memory record → its storage form (`packed-v2`).
 *
 * @example JSON.stringify(decodeUserMemoryRecord(JSON.parse(JSON.stringify(encodeUserMemoryRecord(r))))) === JSON.stringify(r)
 */
export function encodeUserMemoryRecord(record: UserMemory): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!(PACKED_FIELDS as readonly string[]).includes(key) && value !== undefined) out[key] = value;
  }
  out.packed = packFields(record as unknown as Parameters<typeof packFields>[0]);
  return out;
}

/** Any stored memory record (packed, shared, delta snapshots, or full) → the full record. */
export function decodeUserMemoryRecord<T extends Record<string, unknown>>(record: T): T {
  return decodeUserMemoryFields(record, PACKED_FIELDS);
}

/**
 * Like `decodeUserMemoryRecord`, but a packed record decodes only `fields` (the others are left
 * out): a reader that needs the snapshots alone skips the traces. Older forms decode in full.
 *
 * @example decodeUserMemoryFields(raw, ['snapshots']).snapshots
 */
export function decodeUserMemoryFields<T extends Record<string, unknown>>(
  record: T,
  fields: readonly PackedField[],
  options: UnpackOptions = {},
): T {
  if (!isPacked(record.packed)) return decodeSharedMemoryRecord(record);
  const { packed, ...rest } = record;
  const bulky = unpackFields(packed, fields, options);
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) {
    if (key in rest) out[key] = rest[key];
    else if (key in bulky) out[key] = bulky[key as PackedField];
  }
  for (const [key, value] of Object.entries(rest)) if (!(key in out)) out[key] = value;
  return out as T;
}
