import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PersonaForgeError } from '../errors/index.js';
import { createThreadPool, type ThreadPool, type ThreadPoolOptions } from './thread-pool.js';
import { WORKER_SOURCES_ENV } from './worker-code.js';

const job = new URL('../../test/support/thread-pool-job.ts', import.meta.url);

async function* items<T>(values: readonly T[]): AsyncGenerator<T> {
  for (const value of values) yield value;
}

/** A pool of `poolJob` workers (one, no prefix, unless `options` say otherwise), closed after `use`. */
async function withPool(options: Partial<ThreadPoolOptions>, use: (pool: ThreadPool) => Promise<void>) {
  const pool = createThreadPool({
    size: 1,
    module: job,
    exportName: 'poolJob',
    data: { prefix: '' },
    ...options,
  });
  try {
    await use(pool);
  } finally {
    await pool.close();
  }
}

// Each behaviour holds whether the workers run the compiled bundle or the sources through tsx.
describe.each(['compiled', 'sources'])('createThreadPool (%s)', (mode) => {
  beforeEach(() => {
    if (mode === 'sources') process.env[WORKER_SOURCES_ENV] = '1';
  });
  afterEach(() => {
    delete process.env[WORKER_SOURCES_ENV];
  });

  it('yields results in input order although later jobs finish first, and broadcasts to every worker', async () => {
    await withPool({ size: 2, data: { prefix: 'v' } }, async (pool) => {
      await pool.broadcast({ remember: 'table' });
      const waits = [60, 0, 40, 0, 20, 0, 0, 10];
      const out: unknown[] = [];
      for await (const { item, result } of pool.map(items(waits.map((wait, i) => ({ wait, i }))), (item) => ({
        wait: item.wait,
        value: item.i,
      })))
        out.push([item.i, result]);
      expect(out).toEqual(waits.map((_, i) => [i, { value: `v${i}`, remembered: 'table' }]));
    });
  }, 30_000);

  it('keeps `ahead` jobs per worker in flight, no more', async () => {
    for (const ahead of [undefined, 5]) {
      await withPool({ size: 2, ...(ahead === undefined ? {} : { ahead }) }, async (pool) => {
        let pulled = 0;
        async function* counted() {
          for (let i = 0; i < 30; i++) {
            pulled++;
            yield i;
          }
        }
        const seen: number[] = [];
        for await (const { item } of pool.map(counted(), (value) => ({ value }))) seen.push(pulled - item);
        // When each result is yielded, the items pulled beyond it are the ones in flight.
        expect(Math.max(...seen)).toBe(2 * (ahead ?? 3));
      });
    }
  }, 30_000);

  it("rejects with the handler's error, named as a worker-thread failure", async () => {
    await withPool({}, async (pool) => {
      const failure = await pool.run({ fail: 'bad record' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PersonaForgeError);
      expect((failure as Error).message).toBe('worker thread: bad record');
      // The worker is still usable.
      expect(await pool.run({ value: 1 })).toEqual({ value: '1', remembered: null });
    });
  }, 30_000);

  it('fails the jobs of a worker that ends, and every later job sent to it', async () => {
    await withPool({}, async (pool) => {
      await expect(pool.run({ exit: 3 })).rejects.toThrow(/worker thread exited with code 3/);
      await expect(pool.run({ value: 1 })).rejects.toThrow(/exited with code 3/);
    });
  }, 30_000);
});

describe('createThreadPool with a wrapped export', () => {
  it('runs the handler the wrap makes of the export (how a map stage becomes a job handler)', async () => {
    await withPool(
      { wrap: { module: job, exportName: 'uppercased' }, data: { prefix: 'v' } },
      async (pool) => {
        expect(await pool.run({ value: 'x' })).toEqual({ value: 'VX', remembered: null });
      },
    );
  }, 30_000);
});

describe('createThreadPool with what cannot cross to a thread', () => {
  it('rejects the job (no hang) when the pool data or a message cannot be cloned', async () => {
    const badData = createThreadPool({
      size: 1,
      module: job,
      exportName: 'poolJob',
      data: { prefix: () => 1 },
    });
    await expect(badData.run({ value: 1 })).rejects.toThrow(/could not be cloned/);
    await badData.close();
    await withPool({}, async (pool) => {
      await expect(pool.run({ value: () => 1 })).rejects.toThrow(/could not be cloned/);
      expect(await pool.run({ value: 2 })).toEqual({ value: '2', remembered: null });
    });
  }, 30_000);
});
