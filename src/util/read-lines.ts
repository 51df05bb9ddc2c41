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
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new InputError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
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
