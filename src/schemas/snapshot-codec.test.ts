import { describe, expect, it } from 'vitest';
import { buildFixtureUser } from '../../test/validate/fixture.js';
import type { MemorySnapshot } from './memory.js';
import { UserMemory } from './memory.js';
import { decodeUserMemoryRecord } from './memory-record-codec.js';
import {
  decodeShared,
  decodeSnapshots,
  encodeShared,
  encodeSharedMemoryRecord,
  encodeSnapshots,
  withDecodedSnapshots,
} from './snapshot-codec.js';

const snapshotsOf = () => buildFixtureUser('user-0001').memory?.snapshots as MemorySnapshot[];

describe('memory snapshots as deltas (delta-v1)', () => {
  it('decodes to exactly the snapshots it encoded, key order included, and is smaller', () => {
    const snapshots = snapshotsOf();
    const encoded = encodeSnapshots(snapshots);
    expect(JSON.stringify(decodeSnapshots(encoded))).toBe(JSON.stringify(snapshots));
    expect(JSON.stringify(encoded).length).toBeLessThan(JSON.stringify(snapshots).length);
  });

  it('round-trips removals, in-place changes and reorderings', () => {
    const [first] = snapshotsOf();
    const base = first as MemorySnapshot;
    const entry = (id: string, content: string) => ({ ...(base.semantic[0] ?? ({} as never)), id, content });
    const a = { ...base, semantic: [entry('s1', 'a'), entry('s2', 'b'), entry('s3', 'c')] };
    const b = {
      ...base,
      time: '2024-02-01T00:00:00.000Z',
      semantic: [entry('s3', 'c'), entry('s1', 'changed'), entry('s4', 'd')],
    };
    const c = {
      ...base,
      time: '2024-03-01T00:00:00.000Z',
      semantic: [],
      personality: { ...base.personality, turns: 99 },
    };
    const encoded = encodeSnapshots([a, b, c]);
    expect(JSON.stringify(decodeSnapshots(encoded))).toBe(JSON.stringify([a, b, c]));
    expect(encoded.deltas[0]?.semantic).toMatchObject({ remove: ['s2'], order: ['s3', 's1', 's4'] });
  });

  it('records an entry whose keys only changed order, so decoding gives the later key order', () => {
    const [first] = snapshotsOf();
    const base = first as MemorySnapshot;
    const entry = { ...(base.semantic[0] ?? ({} as never)), id: 's1', content: 'a' };
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as typeof entry;
    const later = { ...base, time: '2024-02-01T00:00:00.000Z', semantic: [reordered] };
    const encoded = encodeSnapshots([{ ...base, semantic: [entry] }, later]);
    expect(encoded.deltas[0]?.semantic?.put).toHaveLength(1);
    expect(JSON.stringify(decodeSnapshots(encoded)[1])).toBe(JSON.stringify(later));
  });

  it('UserMemory parses both the delta form and full snapshots to the same record', () => {
    const record = buildFixtureUser('user-0001').memory as NonNullable<
      ReturnType<typeof buildFixtureUser>['memory']
    >;
    const stored = JSON.parse(JSON.stringify({ ...record, snapshots: encodeSnapshots(record.snapshots) }));
    expect(UserMemory.parse(stored)).toEqual(UserMemory.parse(JSON.parse(JSON.stringify(record))));
    expect(withDecodedSnapshots(stored).snapshots).toEqual(record.snapshots);
  });
});

describe('memory records with shared subtrees (shared-v1)', () => {
  it('stores each repeated subtree once and decodes to the same record, key order included', () => {
    const record = buildFixtureUser('user-0001').memory as NonNullable<
      ReturnType<typeof buildFixtureUser>['memory']
    >;
    const full = JSON.parse(JSON.stringify(record));
    // Runs written before packed-v1 hold this form: it is still read.
    const stored = JSON.parse(JSON.stringify(encodeSharedMemoryRecord(full)));
    expect(Object.keys(stored)).toEqual(['schemaVersion', 'userId', 'offline', 'stats', 'shared']);
    expect(JSON.stringify(decodeUserMemoryRecord(stored))).toBe(JSON.stringify(full));
    const turn = {
      time: '2024-01-01T00:00:00.000Z',
      speaker: 'user',
      text: 'a long enough sentence to be shared',
    };
    const encoded = encodeShared({ a: [turn, turn], b: { context: [turn] } });
    expect(encoded.nodes.filter((node) => JSON.stringify(node).includes('long enough'))).toHaveLength(1);
    expect(decodeShared(encoded)).toEqual({ a: [turn, turn], b: { context: [turn] } });
  });
});

describe('wide objects', () => {
  it('chunks an object of many keys (a flattened tree) and rebuilds it, even when no key ends a chunk early', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`5_Behavioral.Lifestyle.Leaf_${i}`, `value ${i}`]),
    );
    const changed = { ...wide, '5_Behavioral.Lifestyle.Leaf_7': 'a new value' };
    const encoded = encodeShared({ before: wide, after: changed });
    expect(decodeShared(encoded)).toEqual({ before: wide, after: changed });
    // The unchanged chunks are shared: far less than twice the size.
    expect(JSON.stringify(encoded).length).toBeLessThan(1.3 * JSON.stringify(wide).length);
  });
});
