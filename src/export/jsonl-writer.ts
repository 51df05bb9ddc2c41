import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
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
  const stream = createWriteStream(tmp, { encoding: 'utf8' });
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(row: unknown): Promise<void> {
      count++;
      if (!stream.write(`${JSON.stringify(row)}\n`)) await once(stream, 'drain');
    },
    /** Appends a row already serialized (one line of JSON, no newline). */
    async writeLine(json: string): Promise<void> {
      count++;
      if (!stream.write(`${json}\n`)) await once(stream, 'drain');
    },
    /** Appends `rows` lines already serialized and encoded (UTF-8, each ending in a newline). */
    async writeBytes(lines: Uint8Array, rows: number): Promise<void> {
      count += rows;
      if (!stream.write(lines)) await once(stream, 'drain');
    },
    async close(): Promise<number> {
      try {
        stream.end();
        await once(stream, 'finish');
        await rename(tmp, path);
      } catch (error) {
        throw await describeWriteError(path, error);
      }
      return count;
    },
  };
}
