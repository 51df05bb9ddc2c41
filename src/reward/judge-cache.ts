import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readJsonl } from '../util/fs.js';

/**
 * Judge verdicts by content key (kind + prompt version + judge model + input), bounded LRU in
 * memory and optionally appended to a JSONL file that is replayed at start, so a restarted
 * server or `persona-forge rescore` reuses every verdict already paid for.
 *
 * @example const cache = createJudgeCache({ maxEntries: 1000 }); cache.set('k', 1); cache.get('k') // 1
 */
export interface JudgeCache {
  get(key: string): number | undefined;
  set(key: string, value: number): void;
  /** Waits for pending appends to the file. */
  flush(): Promise<void>;
  readonly size: number;
  stats(): { hits: number; misses: number };
}

export interface JudgeCacheOptions {
  /** @default 200000 */
  maxEntries?: number;
  /** JSONL file to replay and append to; memory only when unset. */
  file?: string;
}

/**
 * Replays `options.file` (when set and present) into a new cache that appends to it.
 *
 * @example const cache = await loadJudgeCache({ file: '.pf-cache/judge.jsonl' });
 */
export async function loadJudgeCache(options: JudgeCacheOptions = {}): Promise<JudgeCache> {
  const entries = new Map<string, number>();
  if (options.file !== undefined) {
    for await (const line of readJsonl(options.file, { allowMissing: true })) {
      const record = line as { key?: unknown; value?: unknown };
      if (typeof record.key === 'string' && typeof record.value === 'number') {
        entries.delete(record.key);
        entries.set(record.key, record.value);
      }
    }
    await mkdir(dirname(options.file), { recursive: true });
  }
  return createJudgeCache(options, entries);
}

/** A cache in memory (appending to `options.file` when set, without replaying it: see `loadJudgeCache`). */
export function createJudgeCache(
  options: JudgeCacheOptions = {},
  entries = new Map<string, number>(),
): JudgeCache {
  const maxEntries = options.maxEntries ?? 200_000;
  let hits = 0;
  let misses = 0;
  let pending: string[] = [];
  let writing: Promise<void> = Promise.resolve();
  const file = options.file;
  const evict = () => {
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
  };
  evict();
  const scheduleWrite = () => {
    if (file === undefined || pending.length === 0) return;
    const lines = pending.join('');
    pending = [];
    writing = writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, lines, 'utf8');
    });
  };
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) {
        misses++;
        return undefined;
      }
      hits++;
      // Refresh recency: Map iteration order is insertion order.
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      evict();
      if (file !== undefined) {
        pending.push(`${JSON.stringify({ key, value })}\n`);
        queueMicrotask(scheduleWrite);
      }
    },
    async flush() {
      scheduleWrite();
      await writing;
    },
    get size() {
      return entries.size;
    },
    stats: () => ({ hits, misses }),
  };
}
