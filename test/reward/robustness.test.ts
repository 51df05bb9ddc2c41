import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { LlmCallError } from '../../src/errors/index.js';
import { createMemoryRetriever, createRewardApp } from '../../src/reward/index.js';
import { memoryRunDir, memorySnapshot } from './support/memory-fixture.js';
import { createStubLlm } from './support/stub-llm.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected loosely in tests
type Loose = any;
const read = (response: Response): Promise<Loose> => response.json() as Promise<Loose>;
const post = (
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  path: string,
  body: unknown,
) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const ITEM = { completion: '<think>r</think><answer>(b)</answer>', solution: 'Paris' };

describe('judge outage', () => {
  it('answers judge_error nulls (not zeros) when the judge fails, keeping rule components', async () => {
    const llm = createStubLlm({
      respond: () => {
        throw new LlmCallError('judge', 'HTTP 500 after 4 retries', { status: 500 });
      },
    });
    const app = createRewardApp({ llm });
    const body = await read(await post(app, '/v1/rewards', { reward: 'personavlm', items: [ITEM, ITEM] }));
    expect(body.rewards).toEqual([null, null]);
    expect(body.components.format).toEqual([1, 1]);
    expect(body.components.accuracy).toEqual([null, null]);
    expect(
      body.errors.filter((error: Loose) => error.reward === 'accuracy').map((error: Loose) => error.code),
    ).toEqual(['judge_error', 'judge_error']);
  });

  it('returns partial results with timeout nulls when the judge hangs past the request timeout', async () => {
    const llm = createStubLlm({ respond: () => new Promise(() => {}) });
    const app = createRewardApp({ llm });
    const started = performance.now();
    const body = await read(
      await post(app, '/v1/rewards', { reward: ['format', 'accuracy'], items: [ITEM], timeout_ms: 200 }),
    );
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2000);
    expect(body.rewards).toEqual([null]);
    expect(body.components).toEqual({ format: [1], accuracy: [null] });
    expect(body.errors).toEqual([
      {
        index: 0,
        reward: 'accuracy',
        code: 'timeout',
        message: 'not scored within the request timeout of 200 ms',
      },
    ]);
    expect(body.usage.timed_out).toBe(true);
  });

  it('caps the per-request timeout at limits.maxRequestTimeoutMs', async () => {
    const llm = createStubLlm({ respond: () => new Promise(() => {}) });
    const app = createRewardApp({ llm, config: { limits: { maxRequestTimeoutMs: 100 } } });
    const body = await read(
      await post(app, '/v1/rewards', { reward: 'accuracy', items: [ITEM], timeout_ms: 60_000 }),
    );
    expect(body.errors[0]).toMatchObject({ code: 'timeout', message: expect.stringContaining('100 ms') });
  });
});

describe('POST /v1/memory/retrieve', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('retrieves from an inline memory_snapshot within the time window', async () => {
    const llm = createStubLlm();
    const app = createRewardApp({ llm, retriever: createMemoryRetriever({ llm }) });
    const response = await post(app, '/v1/memory/retrieve', {
      memory_snapshot: memorySnapshot(),
      keywords: 'hotpot',
      start_time: '2024-03-01 00:00',
      end_time: '2024-03-31 23:59',
    });
    expect(response.status).toBe(200);
    const body = await read(response);
    expect(body.block).toMatch(/^<memory>\n/);
    expect(body.block).toContain('Sichuan hotpot');
    expect(body.block).not.toContain('hiking');
    expect(body.results.map((result: Loose) => result.id)).toContain('s1');
  });

  it('looks a user up in the run directory, honours exclude, and 404s an unknown user', async () => {
    const dir = await memoryRunDir();
    dirs.push(dir);
    const llm = createStubLlm();
    const app = createRewardApp({ llm, retriever: createMemoryRetriever({ llm, runDir: dir }) });
    const found = await read(
      await post(app, '/v1/memory/retrieve', { user_id: 'u-1', keywords: 'hiking weekend', k: 1 }),
    );
    expect(found.block).toContain('hiking');
    const excluded = await read(
      await post(app, '/v1/memory/retrieve', {
        user_id: 'u-1',
        keywords: 'hiking weekend',
        k: 1,
        exclude: ['s2'],
      }),
    );
    expect(excluded.results.map((result: Loose) => result.id)).not.toContain('s2');
    const missing = await post(app, '/v1/memory/retrieve', { user_id: 'nobody', keywords: 'x' });
    expect(missing.status).toBe(404);
  });

  it('answers 400 for a body with neither user_id nor memory_snapshot, or a bad snapshot', async () => {
    const llm = createStubLlm();
    const app = createRewardApp({ llm, retriever: createMemoryRetriever({ llm }) });
    const neither = await post(app, '/v1/memory/retrieve', { keywords: 'x' });
    expect(neither.status).toBe(400);
    expect((await read(neither)).error.message).toContain('user_id');
    const bad = await post(app, '/v1/memory/retrieve', { memory_snapshot: { time: 'x' }, keywords: 'x' });
    expect(bad.status).toBe(400);
    expect((await read(bad)).error.message).toContain('memory_snapshot');
  });

  it('answers 503 when the app has no retriever', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    expect((await post(app, '/v1/memory/retrieve', { user_id: 'u', keywords: 'x' })).status).toBe(503);
  });
});
