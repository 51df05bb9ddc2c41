import { open } from 'node:fs/promises';
import { InputError } from '../errors/index.js';
import type { Span } from './types.js';

/**
 * The JSON record at `span` of `path`: the only way the browser reads corpus files, one user's
 * line at a time. A span that no longer holds a JSON line (the file changed under the index) is
 * an error naming the file and offset.
 *
 * @example const plan = await readSpan('out/run/plan/plan.jsonl', [0, 5120]);
 */
export async function readSpan<T = unknown>(path: string, span: Span): Promise<T> {
  const [offset, length] = span;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new InputError(
        path,
        `no JSON record at byte ${offset} (${length} bytes): the file changed since the index was built; restart \`persona-forge view\` to rebuild it`,
      );
    }
  } finally {
    await handle.close();
  }
}
