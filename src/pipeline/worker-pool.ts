import { createThreadPool } from '../util/thread-pool.js';
import type { MapWorkerInit, MapWorkerReply } from './map-worker.js';

/**
 * A pool of worker threads running one map stage's `process` (CPU-bound offline work uses every
 * core): a thread pool whose handler is the stage wrapped by `mapStageHandler`. Replies carry
 * the record's JSON text, so the output is the same bytes as a single-threaded run (the runner
 * writes records in user order).
 *
 * @example const pool = createMapWorkerPool(2, init); const reply = await pool.run(records); await pool.close();
 */
export interface MapWorkerPool {
  readonly size: number;
  run(records: Record<string, unknown>): Promise<MapWorkerReply>;
  close(): Promise<void>;
}

/** Old-generation limit per map worker (MB); a user's replay stays far below it. */
const WORKER_HEAP_MB = 512;

export function createMapWorkerPool(size: number, init: MapWorkerInit): MapWorkerPool {
  const pool = createThreadPool({
    size,
    module: init.module,
    exportName: init.exportName,
    wrap: { module: new URL('./map-worker.ts', import.meta.url), exportName: 'mapStageHandler' },
    data: init,
    // One user at a time per worker: a bounded old generation makes V8 collect before it grows
    // the heap, which keeps a 2-worker run of the biggest corpus under 1 GB (bench/e2e.ts).
    maxHeapMb: WORKER_HEAP_MB,
  });
  return {
    size: pool.size,
    run: (records) => pool.run<MapWorkerReply>(records),
    close: () => pool.close(),
  };
}
