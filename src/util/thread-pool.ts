import { Worker } from 'node:worker_threads';
import { PersonaForgeError } from '../errors/index.js';
import { compiledWorker, type WorkerCode } from './worker-code.js';

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
  /** Module URL (a `.ts` source works: it is compiled, see worker-code.ts). */
  module: URL | string;
  exportName: string;
  /** A module export that turns the module's export into the handler (see `WorkerCode`). */
  wrap?: { module: URL | string; exportName: string };
  /** Structured-cloneable data every job's handler receives. */
  data?: unknown;
  /**
   * Jobs `map` keeps in flight per worker: enough that no worker waits while the caller is busy
   * with a result (its own work between results sets how many). @default 3
   */
  ahead?: number;
  /** Per worker (0, 1, …), the data its jobs' handler receives instead of `data` (e.g. a ring of its own). */
  dataFor?: (worker: number) => unknown;
  /**
   * Old-generation heap limit per worker (MB): bounds the pool's memory when jobs are small but
   * leave garbage behind. A job that needs more fails its worker (the pool rejects it).
   */
  maxHeapMb?: number;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { message: string } };

interface Slot {
  worker: Worker | null;
  busy: number;
  dead: Error | null;
}

export function createThreadPool(options: ThreadPoolOptions): ThreadPool {
  const entry = new URL('./thread-pool-entry.mjs', import.meta.url);
  const code: WorkerCode = {
    module: String(options.module),
    exportName: options.exportName,
    ...(options.wrap === undefined
      ? {}
      : { wrap: { module: String(options.wrap.module), exportName: options.wrap.exportName } }),
  };
  const slots: Slot[] = Array.from({ length: Math.max(1, options.size) }, () => ({
    worker: null,
    busy: 0,
    dead: null,
  }));
  let closing = false;
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; slot: Slot }
  >();
  let nextId = 0;
  const start = (slot: Slot, index: number, compiled: string | null) => {
    const data = options.dataFor === undefined ? options.data : options.dataFor(index);
    const worker = new Worker(entry, {
      workerData: { code, compiled, data },
      ...(options.maxHeapMb === undefined
        ? {}
        : { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } }),
    });
    slot.worker = worker;
    worker.on('message', (reply: Reply) => {
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
    worker.on('error', fail);
    worker.on('exit', (exitCode) => {
      if (!closing) fail(new PersonaForgeError('STAGE_FAILED', `worker thread exited with code ${exitCode}`));
    });
  };
  // The threads start once the code is compiled (or found compiled); jobs sent meanwhile wait.
  // A thread that cannot start (data that cannot be cloned to it) fails every job.
  const ready = compiledWorker(code).then((compiled) => {
    slots.forEach((slot, index) => {
      start(slot, index, compiled);
    });
  });
  ready.catch(() => {});
  const send = (slot: Slot, message: unknown) => {
    if (slot.dead !== null) return Promise.reject(slot.dead);
    const id = nextId++;
    slot.busy++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject, slot });
      const fail = (error: Error) => {
        pending.delete(id);
        slot.busy--;
        reject(error);
      };
      ready.then(() => {
        if (slot.dead !== null) return fail(slot.dead);
        try {
          (slot.worker as Worker).postMessage({ id, message });
        } catch (error) {
          fail(error as Error); // a message that cannot be cloned
        }
      }, fail);
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
      const window = (options.ahead ?? 3) * slots.length;
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
      await ready.catch(() => {});
      await Promise.all(slots.map((slot) => slot.worker?.terminate()));
    },
  };
}
