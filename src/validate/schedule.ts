import type { ThreadPool } from '../util/thread-pool.js';

/**
 * Runs `items` through a thread pool and this thread together, yielding the results in input
 * order. Each item goes to the pool while it has fewer than `window` jobs in flight (so every
 * worker always has the next job queued); otherwise this thread does it (`here`). The calling
 * thread works while the workers start (loading their modules takes a second or two) and whenever
 * they are busy, and the run needs one thread fewer for the same cores. A pool job that fails
 * rejects when its turn comes.
 *
 * @example for await (const { item, result } of sharedMap(lines, { pool, window: 2, toMessage: (l) => l, here: check })) …
 */
export async function* sharedMap<T, R>(
  items: AsyncIterable<T>,
  options: {
    pool: ThreadPool;
    /** Jobs the pool may hold at once. */
    window: number;
    toMessage: (item: T) => unknown;
    here: (item: T) => Promise<R>;
    /** The error a failed pool job throws when its turn comes (called then). @default the pool's error */
    failed?: (error: unknown) => Error;
  },
): AsyncGenerator<{ item: T; result: R }> {
  const { pool, window, toMessage, here, failed } = options;
  const queue: Array<{ item: T; result: Promise<R>; settled: boolean; pooled: boolean }> = [];
  // The head's result; a failed pool job throws `failed(error)` when its turn comes.
  const take = async () => {
    const head = queue.shift()!;
    try {
      return { item: head.item, result: await head.result };
    } catch (error) {
      throw head.pooled && failed !== undefined ? failed(error) : error;
    }
  };
  // Results this thread made wait behind an unfinished pool job (bounded: then it waits too).
  const maxQueue = 4 * window + 8;
  let inFlight = 0;
  for await (const item of items) {
    while (queue.length >= maxQueue) yield await take();
    // Let the pool's replies in first: this thread's own checks keep the event loop busy, and a
    // worker whose results are not taken in waits idle.
    if (inFlight >= window) await new Promise((resume) => setImmediate(resume));
    if (inFlight < window) {
      inFlight++;
      const entry = { item, result: pool.run<R>(toMessage(item)), settled: false, pooled: true };
      const settle = () => {
        inFlight--;
        entry.settled = true;
      };
      // A rejection surfaces when the result is awaited in order.
      entry.result.then(settle, settle);
      queue.push(entry);
    } else {
      queue.push({ item, result: Promise.resolve(await here(item)), settled: true, pooled: false });
    }
    // Hand on every finished result at the head, so the caller folds while the pool works.
    while (queue[0]?.settled === true) yield await take();
  }
  while (queue.length > 0) yield await take();
}
