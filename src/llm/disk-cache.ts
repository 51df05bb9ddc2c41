import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/fs.js';

/**
 * A content-addressed JSON store: `<dir>/<key[0..2]>/<key>.json`, written atomically, read
 * asynchronously. Keys are sha256 of the request content (model, messages, sampling params,
 * seed, schema), never of parsing code, so a rerun replays raw answers through current code.
 *
 * @example
 * const cache = createDiskCache('.pf-cache/llm');
 * await cache.set(key, { text: 'hi' }); await cache.get(key);
 */
export interface DiskCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export function createDiskCache(dir: string): DiskCache {
  const pathOf = (key: string): string => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      let text: string;
      try {
        text = await readFile(pathOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        return JSON.parse(text);
      } catch {
        // A torn or foreign file is a miss; the next answer overwrites it atomically.
        return undefined;
      }
    },
    async set(key, value) {
      await writeFileAtomic(pathOf(key), JSON.stringify(value), { concurrent: true });
    },
  };
}
