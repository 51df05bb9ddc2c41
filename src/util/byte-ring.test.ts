import { describe, expect, it } from 'vitest';
import { BufferRegions, createByteRing, type RegionRef, RingReader, RingWriter } from './byte-ring.js';
import { createThreadPool } from './thread-pool.js';

const job = new URL('../../test/support/byte-ring-job.ts', import.meta.url);

/** The release mark a ring's reader has published. */
const releasedOf = (ring: SharedArrayBuffer) => Number(Atomics.load(new BigInt64Array(ring, 0, 1), 0));

/** Deterministic texts of 0 to ~`most` UTF-16 units: ASCII, accents, emoji, a lone surrogate. */
function texts(seed: number, count: number, most: number): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pieces = ['abc ', 'é ', '🍜', '"q"\\', '\ud83d', '\n', 'x'.repeat(40)];
  return Array.from({ length: count }, () => {
    let text = '';
    const length = Math.floor(next() * next() * most);
    while (text.length < length) text += pieces[Math.floor(next() * pieces.length)];
    return text;
  });
}

/** What a region must hold: each text as UTF-8 (a lone surrogate as U+FFFD), with newlines if asked. */
const expected = (values: readonly string[], lines: boolean) =>
  Buffer.from(
    values
      .map((text) => (text as string & { toWellFormed(): string }).toWellFormed() + (lines ? '\n' : ''))
      .join(''),
  );

describe('byte ring', () => {
  it('releases regions in the order they were written, whatever order the reader is done with them', () => {
    const ring = createByteRing(1024);
    const [writer, reader] = [new RingWriter(ring), new RingReader(ring)];
    const refs: RegionRef[] = [];
    for (const text of ['one', 'two', 'three']) {
      writer.begin();
      writer.write(text);
      refs.push(writer.end());
    }
    for (const ref of refs) reader.track(ref);
    expect(refs.map((ref) => Buffer.from(reader.bytes(ref)).toString())).toEqual(['one', 'two', 'three']);
    reader.done(refs[1] as RegionRef);
    expect(releasedOf(ring)).toBe(0);
    reader.done(refs[0] as RegionRef);
    expect(releasedOf(ring)).toBe(6);
    reader.done(refs[2] as RegionRef);
    expect(releasedOf(ring)).toBe(11);
  });

  it('moves a region that would cross the ring end to its start, and spills one bigger than the ring', () => {
    const ring = createByteRing(64);
    const [writer, reader] = [new RingWriter(ring), new RingReader(ring)];
    const write = (values: string[]) => {
      writer.begin();
      for (const value of values) writer.write(value);
      const ref = writer.end();
      reader.track(ref);
      const bytes = Buffer.from(reader.bytes(ref)).toString();
      reader.done(ref);
      return { ref, bytes };
    };
    expect(write(['a'.repeat(40)]).ref).toEqual({ start: 0, end: 40 });
    // 30 bytes do not fit in the 24 left: the region starts the next lap (its 24 bytes of padding included).
    const moved = write(['b'.repeat(10), 'c'.repeat(20)]);
    expect(moved).toEqual({ ref: { start: 64, end: 94 }, bytes: `${'b'.repeat(10)}${'c'.repeat(20)}` });
    const spilled = write(['d'.repeat(30), 'é'.repeat(30)]);
    expect('bytes' in spilled.ref).toBe(true);
    expect(spilled.bytes).toBe(`${'d'.repeat(30)}${'é'.repeat(30)}`);
    // The spilled region took no room: the next one follows the moved one.
    expect(write(['e']).ref).toEqual({ start: 94, end: 95 });
  });

  it('carries regions from a worker thread, which waits for room, byte for byte', async () => {
    const ring = createByteRing(4096);
    const reader = new RingReader(ring);
    const pool = createThreadPool({ size: 1, module: job, exportName: 'ringJob', dataFor: () => ({ ring }) });
    // Every tenth region is bigger than the ring.
    const jobs = Array.from({ length: 120 }, (_, i) => ({
      texts: [...texts(i + 1, 1 + (i % 9), 900), ...(i % 10 === 0 ? ['é'.repeat(2100)] : [])],
      lines: i % 2 === 0,
    }));
    let spilled = 0;
    let intact = true;
    const pending: Array<Promise<void>> = [];
    try {
      async function* items() {
        yield* jobs;
      }
      for await (const { item, result } of pool.map<(typeof jobs)[number], RegionRef>(
        items(),
        (item) => item,
      )) {
        reader.track(result);
        if ('bytes' in result) spilled++;
        expect(Buffer.from(reader.bytes(result)).equals(expected(item.texts, item.lines))).toBe(true);
        // Done later, out of order: the ring is released only up to the oldest region still read.
        // Still intact when the reader is done with it (no later region was written over it).
        const check = () => Buffer.from(reader.bytes(result)).equals(expected(item.texts, item.lines));
        pending.push(
          new Promise((done) =>
            setTimeout(
              () => {
                intact &&= check();
                done(reader.done(result));
              },
              (item.texts.length * 7) % 5,
            ),
          ),
        );
      }
      await Promise.all(pending);
    } finally {
      await pool.close();
    }
    expect(intact).toBe(true);
    expect(spilled).toBeGreaterThan(0);
    expect(releasedOf(ring)).toBeGreaterThan(4 * 4096);
  }, 30_000);

  it('gives a buffer region the exact bytes written, newlines included', () => {
    const regions = new BufferRegions();
    regions.begin();
    regions.writeLine('{"a":"é"}');
    regions.write('\ud83d tail');
    const ref = regions.end();
    expect('bytes' in ref && Buffer.from(ref.bytes).toString()).toBe('{"a":"é"}\n\ufffd tail');
  });
});
