import { afterEach, describe, expect, it } from 'vitest';
import { LlmCallError } from '../../src/errors/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm.js';
import { ask, countingFetch, fakeClient } from './helpers.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('HTTP faults are retried by the SDK (one retry layer)', () => {
  it('honours Retry-After on a 429', async () => {
    server = await startFakeLlmServer({ faults: { rate: 0, script: ['429'], retryAfterSeconds: 1 } });
    const counter = countingFetch();
    const llm = fakeClient(server.url, {}, { fetch: counter.fetch });
    const started = performance.now();
    await expect(llm.structured('judge', ask())).resolves.toMatchObject({ verdict: 'consistent' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(counter.count()).toBe(2);
    expect(server.stats.faults['429']).toBe(1);
  });

  it('retries a 500 and succeeds', async () => {
    server = await startFakeLlmServer({ faults: { rate: 0, script: ['500', '500'], retryAfterMs: 10 } });
    const counter = countingFetch();
    const llm = fakeClient(server.url, { maxRetries: 2 }, { fetch: counter.fetch });
    await expect(
      llm.chat('judge', { messages: [{ role: 'user', content: 'hello' }] }),
    ).resolves.toMatchObject({
      offline: false,
      model: 'fake-model',
    });
    expect(counter.count()).toBe(3);
  });

  it('times out a hung request, retries it, and fails typed when retries run out', async () => {
    server = await startFakeLlmServer({ faults: { rate: 0, script: ['hang', 'hang'] } });
    const llm = fakeClient(server.url, { timeoutMs: 200, maxRetries: 1 });
    const error = await llm
      .chat('judge', { messages: [{ role: 'user', content: 'hello' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).isRetryable).toBe(true);
    expect(server.stats.faults.hang).toBe(2);
    // The third request has no fault: a fresh call now succeeds.
    await expect(
      llm.chat('judge', { messages: [{ role: 'user', content: 'again' }] }),
    ).resolves.toMatchObject({
      offline: false,
    });
  });

  it('recovers from a truncated body and a non-JSON body', async () => {
    server = await startFakeLlmServer({
      faults: { rate: 0, script: ['truncated', 'non-json'], retryAfterMs: 1 },
    });
    const llm = fakeClient(server.url);
    await expect(llm.structured('judge', ask())).resolves.toMatchObject({ verdict: 'consistent' });
    expect(server.stats.faults.truncated + server.stats.faults['non-json']).toBe(2);
  });

  it('completes every call with 20% injected faults of every kind, and counts the faults', async () => {
    server = await startFakeLlmServer({ faults: { rate: 0.2, seed: 7, retryAfterMs: 2, hangMs: 5_000 } });
    const llm = fakeClient(server.url, {
      timeoutMs: 250,
      maxRetries: 5,
      maxSchemaRetries: 5,
      maxConcurrency: 16,
    });
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, index) => llm.safeStructured('judge', ask(index))),
    );
    expect(results.filter((result) => !result.ok)).toEqual([]);
    const faults = server.stats.faults;
    const total = Object.values(faults).reduce((sum, count) => sum + count, 0);
    expect(total).toBeGreaterThan(10);
    for (const kind of ['429', '500', 'truncated', 'non-json', 'schema-invalid'] as const) {
      expect(faults[kind]).toBeGreaterThan(0);
    }
    // Each fault costs at least one extra request (a slow answer on a busy machine may time out too).
    expect(server.stats.requests).toBeGreaterThanOrEqual(150 + total);
  });

  it('shrinks concurrency on 429 and keeps it within bounds', async () => {
    server = await startFakeLlmServer({
      latencyMs: 5,
      faults: { rate: 0.5, kinds: ['429'], seed: 3, retryAfterMs: 1 },
    });
    const llm = fakeClient(server.url, { maxConcurrency: 16, maxRetries: 8 });
    await Promise.all(Array.from({ length: 60 }, (_, index) => llm.structured('judge', ask(index))));
    const stats = llm.endpointStats().fake;
    expect(stats?.concurrencyShrinks).toBeGreaterThan(0);
    expect(stats?.concurrencyLimit).toBeLessThan(16);
    expect(stats?.concurrencyLimit).toBeGreaterThanOrEqual(1);
  });
});

describe('30% 429s with Retry-After 1 s (a throttling gateway)', () => {
  it('finishes near the fault-free time: waits hold no slot and the limit recovers instead of collapsing to 1', async () => {
    server = await startFakeLlmServer({
      latencyMs: 20,
      faults: { rate: 0.3, kinds: ['429'], seed: 11, retryAfterSeconds: 1 },
    });
    const llm = fakeClient(server.url, { maxConcurrency: 16, maxRetries: 8 });
    const started = performance.now();
    const limits: number[] = [];
    const sampler = setInterval(() => limits.push(llm.endpointStats().fake?.concurrencyLimit ?? 0), 5);
    const answers = await Promise.all(
      Array.from({ length: 160 }, (_, index) => llm.structured('judge', ask(index))),
    );
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    expect(answers).toHaveLength(160);
    const throttled = server.stats.faults['429'];
    expect(throttled).toBeGreaterThan(30);
    // Each 429 costs its call 1 s. Holding a slot through every wait (or a limit stuck at 1) costs
    // at least throttled / 16 seconds (≥ 2 s here, ~30 s at limit 1); overlapped waits finish in
    // about the longest retry chain (a few seconds).
    const stats = llm.endpointStats().fake;
    expect(stats?.concurrencyShrinks).toBeGreaterThan(0);
    // It shrank, and came back to the full 16 afterwards (AIMD alone would climb one step per 16 successes).
    const firstShrunk = limits.findIndex((limit) => limit < 16);
    expect(firstShrunk).toBeGreaterThanOrEqual(0);
    expect(limits.lastIndexOf(16)).toBeGreaterThan(firstShrunk);
    expect(seconds).toBeLessThan(throttled / 16 + 4);
  });
});
