import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { replayMemory } from '../../src/memory/replay.js';
import { createOfflineEmbedder } from '../../src/memory/retrieval/offline-embedder.js';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { UserMemory } from '../../src/schemas/memory.js';
import { PACKED_ENCODING, packFields, readPackedIndex, unpackFields } from '../../src/schemas/memory-pack.js';
import {
  decodeUserMemoryFields,
  decodeUserMemoryRecord,
  encodeUserMemoryRecord,
} from '../../src/schemas/memory-record-codec.js';
import { encodeSharedMemoryRecord, encodeSnapshots } from '../../src/schemas/snapshot-codec.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';
import { toPackedV1 } from './packed-v1.js';

const SEED = 42;

/** A real memory record: a planned user, realized offline, replayed through the memory engines. */
async function replayedUser(): Promise<UserMemory> {
  const [user] = fixtureUsers(1, 5);
  const plan = buildUserPlan({ ...user!, images: fixtureImages() }, { config: {}, seed: SEED });
  const dialogue = await realizeDialogue(plan, {
    realizer: createOfflineRealizer({ seed: SEED }),
    seed: SEED,
  });
  return replayMemory(plan, dialogue, { embedder: createOfflineEmbedder(64), seed: SEED });
}

const stored = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

describe('memory records packed (packed-v2)', async () => {
  const record = UserMemory.parse(stored(await replayedUser()));
  const json = JSON.stringify(record);

  it('decodes to exactly the record it encoded (key order included) and is far smaller', () => {
    const line = JSON.stringify(encodeUserMemoryRecord(record));
    const back = decodeUserMemoryRecord(JSON.parse(line));
    expect(JSON.stringify(back)).toBe(json);
    expect(Object.keys(JSON.parse(line))).toEqual(['schemaVersion', 'userId', 'offline', 'stats', 'packed']);
    expect(JSON.parse(line).packed.encoding).toBe(PACKED_ENCODING);
    // The shared-v1 form of the same record is several times larger.
    expect(line.length * 3).toBeLessThan(JSON.stringify(encodeSharedMemoryRecord(record)).length);
    expect(UserMemory.parse(JSON.parse(line))).toEqual(record);
  });

  it('stores each quoted turn once and each tree state as a change from the previous one', () => {
    expect(record.traces.some((trace) => trace.task === 'tree_ops')).toBe(true);
    const packed = packFields(record);
    // The turn table on the first line, then one stored trace per line.
    const lines = brotliDecompressSync(Buffer.from(packed.traces, 'base64')).toString().split('\n');
    const traces = {
      turns: JSON.parse(lines[0]!),
      traces: lines.slice(1).map((line) => JSON.parse(line)),
    } as {
      turns: Array<{ id: string }>;
      traces: Array<{ task: string; input: Array<[string, number, unknown]> }>;
    };
    expect(traces.traces).toHaveLength(record.traces.length);
    const ids = traces.turns.map((turn) => turn.id);
    expect(new Set(ids).size).toBe(ids.length);
    const trees = traces.traces
      .filter((trace) => trace.task === 'tree_ops')
      .map((trace) => trace.input.find(([key]) => key === 'tree'));
    expect(trees[0]?.[1]).toBe(0);
    expect(trees.slice(1).every((entry) => entry?.[1] === 3)).toBe(true);
  });

  it('keeps a turn inline when another turn has its id, and round-trips removed and reordered tree keys', () => {
    const [first, second] = record.traces;
    const turn = {
      id: 't1',
      index: 0,
      time: '2024-01-01T00:00:00.000Z',
      speaker: 'user',
      text: 'a',
      images: [],
    };
    const impostor = { ...turn, text: 'not the same turn' };
    const tree = (entries: Array<[string, string]>) => Object.fromEntries(entries);
    const traces = [
      {
        ...first!,
        task: 'tree_ops' as const,
        input: {
          tree: tree([
            ['a', '1'],
            ['b', '2'],
            ['c', '3'],
          ]),
          turns: [turn],
        },
      },
      {
        ...second!,
        task: 'tree_ops' as const,
        input: {
          tree: tree([
            ['c', '3'],
            ['a', 'x'],
            ['d', '4'],
          ]),
          turn: impostor,
        },
      },
      { ...second!, task: 'tree_ops' as const, input: { tree: tree([]), turns: [turn, impostor] } },
      // Input values that look like the stored form are stored as they are.
      { ...second!, input: { turn: [1, 0, 2], tree: { $t: 1 } } },
    ];
    const changed = { ...record, traces };
    const back = unpackFields(stored(packFields(changed)) as never);
    expect(JSON.stringify(back.traces)).toBe(JSON.stringify(traces));
  });

  it('decodes only the fields asked for', () => {
    const line = stored(encodeUserMemoryRecord(record));
    const partial = decodeUserMemoryFields(line, ['snapshots']);
    expect(Object.keys(partial)).toEqual(['schemaVersion', 'userId', 'offline', 'snapshots', 'stats']);
    expect(JSON.stringify(partial.snapshots)).toBe(JSON.stringify(record.snapshots));
  });

  it('still reads every earlier form to the same record', () => {
    // packed-v1: the packed form before it carried its index and traces one per line.
    const v1 = toPackedV1(stored(encodeUserMemoryRecord(record))) as { packed: Record<string, unknown> };
    const forms = [
      stored(record),
      stored({ ...record, snapshots: encodeSnapshots(record.snapshots) }),
      stored(encodeSharedMemoryRecord(record)),
      v1,
      stored(encodeUserMemoryRecord(record)),
    ];
    expect(readPackedIndex(v1.packed)).toBeNull();
    for (const form of forms) {
      expect(JSON.stringify(decodeUserMemoryRecord(form))).toBe(json);
      expect(UserMemory.parse(form)).toEqual(record);
    }
  });

  it('decodes only the traces a reader wants (and, for tree steps, the earlier ones), naming the rest', () => {
    const line = stored(encodeUserMemoryRecord(record));
    const tasks = [...new Set(record.traces.map((trace) => trace.task))];
    expect(tasks).toContain('tree_ops');
    // Every third tree step, and nothing of the other tasks but their second trace.
    const trees = record.traces.filter((trace) => trace.task === 'tree_ops');
    const wanted = new Set([
      ...trees.filter((_, i) => i % 3 === 2).map((trace) => trace.id),
      ...tasks
        .filter((task) => task !== 'tree_ops')
        .map((task) => record.traces.filter((t) => t.task === task)[1]?.id),
    ]);
    const partial = decodeUserMemoryFields(line, ['traces'], {
      wantTrace: (id) => wanted.has(id),
    }) as UserMemory;
    expect(partial.traces.map((trace) => trace.id)).toEqual(record.traces.map((trace) => trace.id));
    for (const [i, trace] of partial.traces.entries()) {
      const full = record.traces[i]!;
      if (wanted.has(full.id)) expect(JSON.stringify(trace)).toBe(JSON.stringify(full));
      else if (trace.input !== undefined) expect(JSON.stringify(trace)).toBe(JSON.stringify(full));
      else expect(trace).toEqual({ id: full.id, task: full.task });
    }
    // A task whose wanted traces hold no delta is decoded at those traces only: the earlier ones
    // are named (a tree step's state is a delta, so tree_ops is decoded from its start).
    for (const task of tasks.filter((task) => task !== 'tree_ops')) {
      const first = partial.traces.find((trace) => trace.task === task);
      if (first !== undefined && !wanted.has(first.id)) expect(first.input).toBeUndefined();
    }
    expect(partial.traces.find((trace) => trace.task === 'tree_ops')?.input).toBeDefined();
    // Traces after the last wanted one of their task are only named.
    const lastTree = trees.filter((_, i) => i % 3 === 2).at(-1)!;
    const after = partial.traces.filter(
      (trace, i) => trace.task === 'tree_ops' && i > record.traces.indexOf(lastTree),
    );
    expect(after.every((trace) => trace.input === undefined)).toBe(
      trees.length % 3 !== 0 || after.length === 0,
    );
  });

  it('carries a catalogue of the record: trace ids and tasks, trajectory questions, in order', () => {
    const index = readPackedIndex(stored(encodeUserMemoryRecord(record)).packed);
    expect(index?.traces).toEqual(record.traces.map((trace) => [trace.id, trace.task]));
    expect(index?.trajectories).toEqual(record.trajectories.map((trajectory) => trajectory.qaId));
    expect(index?.traces.length).toBeGreaterThan(10);
    const damaged = stored(encodeUserMemoryRecord(record)) as { packed: { index: string } };
    damaged.packed.index = damaged.packed.index.slice(0, 12);
    expect(() => readPackedIndex(damaged.packed)).toThrow(/"index" \(packed-v2\) cannot be decoded/);
  });

  it('fails every reader, not only export, when the index names another trace', () => {
    const line = stored(encodeUserMemoryRecord(record)) as { packed: Record<string, unknown> };
    const index = readPackedIndex(line.packed)!;
    line.packed.index = brotliCompressSync(
      JSON.stringify({
        ...index,
        traces: index.traces.map(([id, task], i) => [i === 3 ? `${id}-x` : id, task]),
      }),
    ).toString('base64');
    expect(() => decodeUserMemoryRecord(line)).toThrow(/index disagrees with its traces/);
    // Through the schema (how validate reads an edited file) the user fails its schema.
    const parsed = UserMemory.safeParse(line);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/index disagrees with its traces/);
  });

  it('names the field when packed data is damaged', () => {
    const line = stored(encodeUserMemoryRecord(record)) as { packed: { traces: string } };
    line.packed.traces = `${line.packed.traces.slice(0, 40)}AAAA`;
    expect(() => decodeUserMemoryRecord(line)).toThrow(/"traces" \(packed-v2\) cannot be decoded/);
    // Through the schema it is a failed parse (the user is quarantined), not a crash.
    const parsed = UserMemory.safeParse(line);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/"traces" \(packed-v2\)/);
  });
});
