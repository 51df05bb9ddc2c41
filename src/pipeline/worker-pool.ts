import { Worker } from 'node:worker_threads';
import type { MapWorkerInit, MapWorkerReply } from './map-worker.js';

/**
 * A pool of worker threads running one map stage's `process` (CPU-bound offline work uses every
 * core). Each job goes to the least busy worker; replies carry the record's JSON text, so the
 * output is the same bytes as a single-threaded run (the runner writes records in user order).
 *
 * @example const pool = await createMapWorkerPool(2, init); const reply = await pool.run(records); await pool.close();
 */
export interface MapWorkerPool {
  readonly size: number;
  run(records: Record<string, unknown>): Promise<MapWorkerReply>;
  close(): Promise<void>;
}

/** Old-generation limit per map worker (MB); a user's replay stays far below it. */
const WORKER_HEAP_MB = 512;

export function createMapWorkerPool(size: number, init: MapWorkerInit): MapWorkerPool {
  const entry = new URL('./map-worker-entry.mjs', import.meta.url);
  const workers = Array.from({ length: size }, () => ({
    worker: new Worker(entry, {
      workerData: init,
      // One user at a time per worker: a bounded old generation makes V8 collect before it grows
      // the heap, which keeps a 2-worker run of the biggest corpus under 1 GB (bench/e2e.ts).
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    }),
    busy: 0,
  }));
  const pending = new Map<
    number,
    {
      resolve: (reply: MapWorkerReply) => void;
      reject: (error: Error) => void;
      slot: (typeof workers)[number];
    }
  >();
  let nextId = 0;
  for (const slot of workers) {
    slot.worker.on('message', (reply: MapWorkerReply) => {
      const job = pending.get(reply.id);
      if (job === undefined) return;
      pending.delete(reply.id);
      job.slot.busy--;
      job.resolve(reply);
    });
    slot.worker.on('error', (error) => {
      for (const [id, job] of pending) {
        if (job.slot !== slot) continue;
        pending.delete(id);
        job.reject(error);
      }
    });
  }
  return {
    size,
    run(records) {
      const slot = workers.reduce((best, candidate) => (candidate.busy < best.busy ? candidate : best));
      const id = nextId++;
      slot.busy++;
      return new Promise<MapWorkerReply>((resolve, reject) => {
        pending.set(id, { resolve, reject, slot });
        slot.worker.postMessage({ id, records });
      });
    },
    async close() {
      await Promise.all(workers.map((slot) => slot.worker.terminate()));
    },
  };
}
