import { Worker } from 'node:worker_threads';
import { PersonaForgeError } from '../errors/index.js';

/**
 * A pool of worker threads that each load one handler function, `(message, data) => result`
 * (`data` is the pool's `data`, the same for every job), for CPU-bound work off the main thread.
 * Jobs go to the least busy worker; `map` runs a stream of jobs with a bounded number in flight
 * and yields the results in input order, so the caller writes the same bytes as one thread.
 *
 * @example
 * const pool = createThreadPool({ size: 2, module: new URL('./job.ts', import.meta.url), exportName: 'job', data: {} });
 * for await (const { item, result } of pool.map(items, (item) => item)) …
 * await pool.close();
 */
export interface ThreadPool {
  readonly size: number;
  run<R>(message: unknown): Promise<R>;
  /** Sends `message` to every worker (e.g. a lookup table later jobs read); resolves when each has handled it. */
  broadcast(message: unknown): Promise<void>;
  map<T, R>(items: AsyncIterable<T>, toMessage: (item: T) => unknown): AsyncGenerator<{ item: T; result: R }>;
  close(): Promise<void>;
}

export interface ThreadPoolOptions {
  size: number;
  /** Module URL (a `.ts` source works: the worker registers tsx). */
  module: URL | string;
  exportName: string;
  /** Structured-cloneable data every job's handler receives. */
  data?: unknown;
  /**
   * Old-generation heap limit per worker (MB): bounds the pool's memory when jobs are small but
   * leave garbage behind. A job that needs more fails its worker (the pool rejects it).
   */
  maxHeapMb?: number;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string } };

export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  const entry = new URL('./thread-pool-entry.mjs', import.meta.url);
  const slots = Array.from({ length: Math.max(1, options.size) }, () => ({
    worker: new Worker(entry, {
      workerData: { module: String(options.module), exportName: options.exportName, data: options.data },
      ...(options.maxHeapMb === undefined
        ? {}
        : { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } }),
    }),
    busy: 0,
    dead: null as Error | null,
  }));
  let closing = false;
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; slot: (typeof slots)[number] }
  >();
  let nextId = 0;
  for (const slot of slots) {
    slot.worker.on('message', (reply: Reply) => {
      const job = pending.get(reply.id);
      if (job === undefined) return;
      pending.delete(reply.id);
      slot.busy--;
      if (reply.ok) job.resolve(reply.value);
      else job.reject(new PersonaForgeError('STAGE_FAILED', `worker thread: ${reply.error.message}`));
    });
    // A worker that fails or ends (out of memory, a crash) fails its jobs and takes no more.
    const fail = (error: Error) => {
      slot.dead = error;
      for (const [id, job] of pending) {
        if (job.slot !== slot) continue;
        pending.delete(id);
        job.reject(error);
      }
    };
    slot.worker.on('error', fail);
    slot.worker.on('exit', (code) => {
      if (!closing) fail(new PersonaForgeError('STAGE_FAILED', `worker thread exited with code ${code}`));
    });
  }
  const send = (slot: (typeof slots)[number], message: unknown) => {
    if (slot.dead !== null) return Promise.reject(slot.dead);
    const id = nextId++;
    slot.busy++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject, slot });
      slot.worker.postMessage({ id, message });
    });
  };
  const run = <R>(message: unknown) =>
    send(
      slots.reduce((best, candidate) => (candidate.busy < best.busy ? candidate : best)),
      message,
    ) as Promise<R>;
  return {
    size: slots.length,
    run,
    async broadcast(message) {
      await Promise.all(slots.map((slot) => send(slot, message)));
    },
    async *map<T, R>(items: AsyncIterable<T>, toMessage: (item: T) => unknown) {
      // Enough jobs in flight to keep every worker busy while the caller consumes results in order.
      const window = 3 * slots.length;
      const queue: Array<{ item: T; result: Promise<R> }> = [];
      const settle = (result: Promise<R>) => {
        result.catch(() => {}); // rejections surface when the result is awaited in order
        return result;
      };
      for await (const item of items) {
        queue.push({ item, result: settle(run<R>(toMessage(item))) });
        if (queue.length >= window) {
          const head = queue.shift() as { item: T; result: Promise<R> };
          yield { item: head.item, result: await head.result };
        }
      }
      while (queue.length > 0) {
        const head = queue.shift() as { item: T; result: Promise<R> };
        yield { item: head.item, result: await head.result };
      }
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
