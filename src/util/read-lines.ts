import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../errors/index.js';

/**
 * Streams the lines of a UTF-8 text file, reading the next chunk only when the consumer asks for
 * more lines. Unlike `readline`'s async iterator, it never reads ahead of a slow consumer, so
 * joining several large JSON Lines files (one user at a time) keeps memory bounded by a chunk
 * plus the longest line. Strips a trailing `\r`.
 *
 * @example for await (const line of readLines('run/memory/memory.jsonl')) console.log(line.length);
 */
export async function* readLines(
  path: string,
  options: { chunkBytes?: number } = {},
): AsyncGenerator<string> {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const handle = await openForReading(path);
  try {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(chunkBytes);
    let pending = '';
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      pending += decoder.write(buffer.subarray(0, bytesRead));
      let start = 0;
      let newline = pending.indexOf('\n', start);
      while (newline !== -1) {
        const line = pending.slice(start, newline);
        yield line.endsWith('\r') ? line.slice(0, -1) : line;
        start = newline + 1;
        newline = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending !== '') yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
  } finally {
    await handle.close();
  }
}

/** One line of a file as a byte span (newline and a trailing `\r` excluded), with its first bytes decoded. */
export interface LineSpanRead {
  offset: number;
  length: number;
  /** The line's first `headBytes` bytes as text (a character cut at the end is dropped). */
  head: string;
  /** The whole line as text. */
  text(): string;
}

/**
 * Streams the non-empty lines of a file as byte spans without decoding them (but for their first
 * bytes): for a reader that hands lines to other threads to read, or needs only a field near the
 * start of each. Memory stays bounded by a chunk plus the longest line.
 *
 * @example for await (const span of readLineSpans('run/memory/memory.jsonl')) console.log(span.offset, span.head.slice(0, 30));
 */
export async function* readLineSpans(
  path: string,
  options: { chunkBytes?: number; headBytes?: number } = {},
): AsyncGenerator<LineSpanRead> {
  const chunkBytes = options.chunkBytes ?? 4 << 20;
  const headBytes = options.headBytes ?? 4096;
  const handle = await openForReading(path);
  try {
    let carry = Buffer.alloc(0);
    let carryOffset = 0;
    const emit = (data: Buffer, start: number, end: number, base: number): LineSpanRead | null => {
      let stop = end;
      if (stop > start && data[stop - 1] === 13) stop--;
      if (stop === start) return null;
      const line = data.subarray(start, stop);
      const head = new StringDecoder('utf8').write(line.subarray(0, headBytes));
      if (head.trim() === '' && line.every((byte) => byte === 32 || byte === 9)) return null;
      // Every chunk is a fresh buffer: the view stays valid.
      return { offset: base + start, length: stop - start, head, text: () => line.toString('utf8') };
    };
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      const data =
        carry.length > 0
          ? Buffer.concat([carry, chunk.subarray(0, bytesRead)])
          : chunk.subarray(0, bytesRead);
      const base = carryOffset;
      let start = 0;
      for (let newline = data.indexOf(10, start); newline !== -1; newline = data.indexOf(10, start)) {
        const span = emit(data, start, newline, base);
        if (span !== null) yield span;
        start = newline + 1;
      }
      carry = Buffer.from(data.subarray(start));
      carryOffset = base + start;
    }
    const last = emit(carry, 0, carry.length, carryOffset);
    if (last !== null) yield last;
  } finally {
    await handle.close();
  }
}

async function openForReading(path: string) {
  try {
    return await open(path, 'r');
  } catch (error) {
    throw new InputError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
}
