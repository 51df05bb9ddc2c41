import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetExceededError } from '../../src/errors/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm.js';
import { ask, fakeClient } from './helpers.js';

let server: FakeLlmServer;
let dir: string;
beforeEach(async () => {
  server = await startFakeLlmServer();
  dir = await mkdtemp(join(tmpdir(), 'pf-llm-cache-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const cachedClient = (url: string) =>
  createLlmClient(
    LlmConfig.parse({
      endpoints: { fake: { baseUrl: url, model: 'fake-model', priceInputPerM: 1, priceOutputPerM: 2 } },
      roles: { judge: 'fake', embedder: 'fake' },
      cache: { enabled: true, dir },
    }),
  );

describe('disk cache', () => {
  it('a second identical run issues zero requests, counts hits and bills nothing', async () => {
    const run = async () => {
      const llm = cachedClient(server.url);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => llm.structured('judge', ask(index))),
      );
      const text = await llm.chat('judge', {
        messages: [{ role: 'user', content: 'hello' }],
        seed: 1,
        stage: 'synth',
      });
      const vectors = await llm.embed('embedder', ['a b', 'c d'], { stage: 'memory' });
      return { answers, text: text.text, vectors, usage: llm.usage() };
    };
    const first = await run();
    const requestsAfterFirst = server.stats.requests;
    expect(requestsAfterFirst).toBe(22);
    expect(first.usage.total.costUsd).toBeGreaterThan(0);
    const second = await run();
    expect(server.stats.requests).toBe(requestsAfterFirst);
    expect(second.answers).toEqual(first.answers);
    expect(second.text).toBe(first.text);
    expect(second.vectors).toEqual(first.vectors);
    expect(second.usage.total).toMatchObject({ calls: 0, cacheHits: 22, costUsd: 0 });
    expect(second.usage.byStage.validate?.cacheHits).toBe(20);
  });

  it('a different seed or schema misses; noCache skips reading', async () => {
    const llm = cachedClient(server.url);
    const message = { messages: [{ role: 'user' as const, content: 'hello' }] };
    await llm.chat('judge', { ...message, seed: 1 });
    await llm.chat('judge', { ...message, seed: 2 });
    await llm.chat('judge', { ...message, seed: 1, noCache: true });
    await llm.chat('judge', { ...message, seed: 1 });
    expect(server.stats.chatRequests).toBe(3);
    expect(llm.usage().total.cacheHits).toBe(1);
  });
});

describe('budget', () => {
  it('stops before exceeding the budget and never spends past it', async () => {
    // Worst case per call: ~40 prompt tokens + 100 max tokens at $1000/M in and out ≈ $0.14.
    const budgetUsd = 1;
    const llm = fakeClient(
      server.url,
      { priceInputPerM: 1000, priceOutputPerM: 1000, maxTokens: 100 },
      { budgetUsd },
    );
    let stopped: unknown;
    let answered = 0;
    for (let index = 0; index < 50 && stopped === undefined; index++) {
      try {
        await llm.structured('judge', ask(index));
        answered++;
      } catch (error) {
        stopped = error;
      }
    }
    expect(stopped).toBeInstanceOf(BudgetExceededError);
    expect(answered).toBeGreaterThan(2);
    const spent = llm.usage().total.costUsd;
    expect(spent).toBeLessThanOrEqual(budgetUsd);
    expect((stopped as BudgetExceededError).spentUsd).toBe(spent);
    // The refused call was never sent.
    expect(server.stats.chatRequests).toBe(answered);
  });

  it('holds concurrent calls to the budget together', async () => {
    const llm = fakeClient(
      server.url,
      { priceInputPerM: 1000, priceOutputPerM: 1000, maxTokens: 100 },
      { budgetUsd: 1 },
    );
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) => llm.structured('judge', ask(index))),
    );
    expect(results.some((result) => result.status === 'rejected')).toBe(true);
    expect(llm.usage().total.costUsd).toBeLessThanOrEqual(1);
  });
});
