/**
 * Bytes that one thread writes and another reads in place: a ring in a SharedArrayBuffer, so
 * what a worker thread produces (text it encodes as UTF-8) reaches the main thread without
 * being copied into a message or allocated again on the receiving side, whose garbage collector
 * would otherwise run once per few dozen MB received.
 *
 * The writer appends regions (one per job); the reader takes each region's bytes as a view and
 * releases regions in the order they were written once it no longer reads them. A writer that
 * needs room waits until the reader releases some. A region too big for the ring is written to
 * its own buffer instead (and sent like any other message).
 *
 * @example
 * const ring = createByteRing(1 << 20);               // on the reading thread; `ring` goes to the writer
 * const writer = new RingWriter(ring); writer.begin(); writer.write('hello'); const ref = writer.end();
 * const reader = new RingReader(ring); reader.bytes(ref); reader.track(ref); reader.done(ref);
 */

/** Bytes before the data: the reader's release mark (a 64-bit offset counted from the ring's start). */
const CONTROL_BYTES = 8;
/** A waiting writer looks again this often (ms), so a thread being terminated is never stuck. */
const WAIT_MS = 100;

/** A ring of `capacity` bytes (and its release mark), to share between one writer and one reader. */
export function createByteRing(capacity: number): SharedArrayBuffer {
  return new SharedArrayBuffer(CONTROL_BYTES + capacity);
}

/**
 * Where a region's bytes are: offsets in the ring, counted from its start over every lap (a
 * region never wraps), or the region's own bytes when it outgrew the ring.
 */
export type RegionRef = { start: number; end: number } | { bytes: Uint8Array };

/** Text appended as UTF-8 (a lone surrogate becomes U+FFFD, whatever text is written next to it). */
export interface ByteSink {
  /** Appends the UTF-8 bytes of `text`; returns their number. */
  write(text: string): number;
  /** Appends `text`, then a newline. */
  writeLine(text: string): void;
  /** Bytes written since the region began. */
  readonly length: number;
}

/** A sink whose bytes form one region at a time. */
export interface RegionWriter extends ByteSink {
  begin(): void;
  end(): RegionRef;
}

/** Regions in a growable buffer of their own (one thread, or a region too big for a ring). */
export class BufferRegions implements RegionWriter {
  private bytes: Buffer = Buffer.allocUnsafeSlow(1 << 12);
  private used = 0;

  begin(): void {
    this.used = 0;
  }

  get length(): number {
    return this.used;
  }

  write(text: string): number {
    this.room(3 * text.length);
    const written = this.bytes.write(text, this.used, 'utf8');
    this.used += written;
    return written;
  }

  writeLine(text: string): void {
    this.write(text);
    this.write('\n');
  }

  /** Appends bytes as they are. */
  append(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.bytes.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** The region's bytes so far, in place (valid until the next write or region; `begin` starts over). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.used);
  }

  end(): RegionRef {
    // A copy of exactly the bytes written: the working buffer is reused by the next region.
    const bytes = new Uint8Array(this.used);
    bytes.set(this.bytes.subarray(0, this.used));
    return { bytes };
  }

  private room(more: number): void {
    if (this.used + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, this.used + more));
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
}

/** The writing side of a ring: one region at a time (`begin`, writes, `end`). */
export class RingWriter implements RegionWriter {
  private readonly released: BigInt64Array;
  private readonly data: Buffer;
  private readonly capacity: number;
  /** Where the next region starts (offset over every lap). */
  private head = 0;
  /** Where the current region began: every byte from here on is its own (moved or not). */
  private origin = 0;
  /** The current region's start and size. */
  private start = 0;
  private used = 0;
  /** The current region, moved out of the ring because it outgrew it. */
  private spill: BufferRegions | null = null;

  constructor(ring: SharedArrayBuffer) {
    this.released = new BigInt64Array(ring, 0, 1);
    this.capacity = ring.byteLength - CONTROL_BYTES;
    this.data = Buffer.from(ring, CONTROL_BYTES, this.capacity);
  }

  begin(): void {
    this.origin = this.head;
    this.start = this.head;
    this.used = 0;
    this.spill = null;
  }

  get length(): number {
    return this.used;
  }

  write(text: string): number {
    if (this.spill === null) {
      // A UTF-16 unit takes at most 3 bytes of UTF-8; where that much would not fit, the exact
      // size decides whether the region moves or spills.
      const most = 3 * text.length;
      this.room(this.at() + this.used + most <= this.capacity ? most : Buffer.byteLength(text, 'utf8'));
    }
    if (this.spill !== null) {
      const written = this.spill.write(text);
      this.used += written;
      return written;
    }
    const written = this.data.write(text, this.at() + this.used, 'utf8');
    this.used += written;
    return written;
  }

  writeLine(text: string): void {
    this.write(text);
    this.write('\n');
  }

  end(): RegionRef {
    if (this.spill !== null) return this.spill.end();
    this.head = this.start + this.used;
    return { start: this.start, end: this.head };
  }

  /** The current region's position in the ring. */
  private at(): number {
    return this.start % this.capacity;
  }

  /** Makes room for `more` bytes after the current region's, contiguous with them. */
  private room(more: number): void {
    const need = this.used + more;
    if (need > this.capacity) {
      // Bigger than the ring: the region goes on in a buffer of its own.
      const at = this.at();
      this.spill = new BufferRegions();
      this.spill.begin();
      this.spill.append(this.data.subarray(at, at + this.used));
      return;
    }
    const at = this.at();
    if (at + need <= this.capacity) {
      this.waitFree(this.start + need);
      return;
    }
    // The region would cross the ring's end: it moves to the ring's start (the bytes it leaves
    // behind are released with it; the two places may overlap, which `copy` allows).
    const moved = this.start + (this.capacity - at);
    this.waitFree(moved + need);
    this.data.copy(this.data, 0, at, at + this.used);
    this.start = moved;
  }

  /**
   * Waits until the ring's bytes up to `end` hold nothing the reader still reads: every byte
   * a lap before is released, or belongs to this region (from `origin` on).
   */
  private waitFree(end: number): void {
    const needed = Math.min(end - this.capacity, this.origin);
    for (;;) {
      const released = Atomics.load(this.released, 0);
      if (Number(released) >= needed) return;
      Atomics.wait(this.released, 0, released, WAIT_MS);
    }
  }
}

/** The reading side of a ring: views of regions, released in the order they were written. */
export class RingReader {
  private readonly released: BigInt64Array;
  private readonly data: Uint8Array;
  private readonly capacity: number;
  /** Regions read and not yet released, in order, with whether the reader is done with them. */
  private readonly pending: Array<{ end: number; done: boolean }> = [];

  constructor(ring: SharedArrayBuffer) {
    this.released = new BigInt64Array(ring, 0, 1);
    this.capacity = ring.byteLength - CONTROL_BYTES;
    this.data = new Uint8Array(ring, CONTROL_BYTES, this.capacity);
  }

  /** A region's bytes (a view into the ring, valid until the region is released). */
  bytes(ref: RegionRef): Uint8Array {
    if ('bytes' in ref) return ref.bytes;
    const at = ref.start % this.capacity;
    return this.data.subarray(at, at + (ref.end - ref.start));
  }

  /** Notes a region as read; regions are tracked in the order they were written. */
  track(ref: RegionRef): void {
    if ('end' in ref) this.pending.push({ end: ref.end, done: false });
  }

  /** The reader no longer needs the region: it and every done region before it are released. */
  done(ref: RegionRef): void {
    if (!('end' in ref)) return;
    const entry = this.pending.find((candidate) => candidate.end === ref.end && !candidate.done);
    if (entry === undefined) return;
    entry.done = true;
    let end: number | null = null;
    while (this.pending[0]?.done === true) end = (this.pending.shift() as { end: number }).end;
    if (end !== null) {
      Atomics.store(this.released, 0, BigInt(end));
      Atomics.notify(this.released, 0);
    }
  }
}
