import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finished } from 'node:stream/promises';
import { describeWriteError, tempPathFor } from '../util/fs.js';

/**
 * Streams JSON Lines into a temporary file beside `path` and renames it into place on `close`,
 * so a reader never sees half a file and the writer never holds all rows.
 *
 * @example const out = await openJsonlWriter('export/sft/train.jsonl'); await out.write(row); await out.close();
 */
export async function openJsonlWriter(path: string) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = tempPathFor(path);
  // A deep buffer: the caller appends a user's rows (often hundreds of KB) without waiting for
  // each write to reach the file, and goes on with the next user meanwhile.
  const stream = createWriteStream(tmp, { encoding: 'utf8', highWaterMark: 4 * 1024 * 1024 });
  let count = 0;
  // A failed write (a full disk) is kept and thrown by the next call: with a deep buffer most
  // writes return before reaching the file, so nobody may be waiting on the stream when it fails.
  let failure: { error: unknown } | null = null;
  stream.on('error', (error) => {
    failure ??= { error };
  });
  const failed = async () => {
    if (failure !== null) {
      stream.destroy();
      throw await describeWriteError(path, failure.error);
    }
  };
  const put = async (chunk: string | Uint8Array, written?: () => void) => {
    await failed();
    if (!stream.write(chunk, written))
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('close', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
      });
    await failed();
  };
  return {
    get count() {
      return count;
    },
    async write(row: unknown): Promise<void> {
      count++;
      await put(`${JSON.stringify(row)}\n`);
    },
    /** Appends a row already serialized (one line of JSON, no newline). */
    async writeLine(json: string): Promise<void> {
      count++;
      await put(`${json}\n`);
    },
    /**
     * Appends `rows` lines already serialized and encoded (UTF-8, each ending in a newline). The
     * bytes are not copied: they must stay as they are until `written` is called (once they
     * reached the file, or the write failed).
     */
    async writeBytes(lines: Uint8Array, rows: number, written?: () => void): Promise<void> {
      count += rows;
      await put(lines, written);
    },
    /** Gives up the file: the stream is closed unwritten and its temporary file removed. */
    async abort(): Promise<void> {
      stream.destroy();
      await finished(stream).catch(() => {});
      await rm(tmp, { force: true });
    },
    async close(): Promise<number> {
      await failed();
      try {
        stream.end();
        await finished(stream);
        await rename(tmp, path);
      } catch (error) {
        throw await describeWriteError(path, failure?.error ?? error);
      }
      return count;
    },
  };
}
