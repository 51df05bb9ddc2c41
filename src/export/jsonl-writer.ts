import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Streams JSON Lines into a temporary file beside `path` and renames it into place on `close`,
 * so a reader never sees half a file and the writer never holds all rows.
 *
 * @example const out = await openJsonlWriter('export/sft/train.jsonl'); await out.write(row); await out.close();
 */
export async function openJsonlWriter(path: string) {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
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
    async close(): Promise<number> {
      stream.end();
      await once(stream, 'finish');
      await rename(tmp, path);
      return count;
    },
  };
}
