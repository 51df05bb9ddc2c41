import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LlmCallError } from '../../src/errors/index.js';
import { applyLlmOverride, createLlmClient, offlineEmbedding } from '../../src/llm/index.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm.js';
import { ask, fakeClient } from './helpers.js';

const servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('load balancing', () => {
  it('spreads calls over several base URLs by least requests in flight', async () => {
    const a = await startFakeLlmServer({ latencyMs: 20 });
    const b = await startFakeLlmServer({ latencyMs: 20 });
    servers.push(a, b);
    const llm = fakeClient([a.url, b.url], { maxConcurrency: 8 });
    await Promise.all(Array.from({ length: 40 }, (_, index) => llm.structured('judge', ask(index))));
    expect(a.stats.chatRequests + b.stats.chatRequests).toBe(40);
    expect(a.stats.chatRequests).toBeGreaterThanOrEqual(15);
    expect(b.stats.chatRequests).toBeGreaterThanOrEqual(15);
    expect(Object.keys(llm.endpointStats().fake?.requestsByBaseUrl ?? {})).toHaveLength(2);
  });
});

describe('embeddings', () => {
  it('embeds online through /v1/embeddings in batches, in input order', async () => {
    const server = await startFakeLlmServer();
    servers.push(server);
    const llm = fakeClient(server.url, { embeddingBatchSize: 2 });
    const texts = ['green tea in the morning', 'running shoes', 'jazz records'];
    const vectors = await llm.embed('embedder', texts, { stage: 'memory' });
    expect(vectors).toHaveLength(3);
    expect(vectors[2]).toEqual(offlineEmbedding('jazz records', 384));
    expect(server.stats.embeddingRequests).toBe(2);
    expect(llm.usage().byStage.memory?.promptTokens).toBeGreaterThan(0);
  });

  it('embeds offline deterministically, L2-normalised, similar texts closer', async () => {
    const llm = createLlmClient(LlmConfig.parse({ cache: { enabled: false } }));
    const [tea, tea2, shoes] = await llm.embed('embedder', [
      'I love green tea',
      'I love green teas',
      'running shoes',
    ]);
    const again = await llm.embed('embedder', ['I love green tea']);
    expect(again[0]).toEqual(tea);
    const dot = (x: number[], y: number[]) =>
      x.reduce((sum, value, index) => sum + value * (y[index] as number), 0);
    expect(dot(tea as number[], tea as number[])).toBeCloseTo(1, 6);
    expect(dot(tea as number[], tea2 as number[])).toBeGreaterThan(dot(tea as number[], shoes as number[]));
    expect(tea).toHaveLength(384);
  });
});

describe('offline backend', () => {
  const llm = createLlmClient(LlmConfig.parse({ cache: { enabled: false } }));
  const Note = z.object({ note: z.string().min(1) });

  it('chats deterministically with no network, labelled offline', async () => {
    const request = { messages: [{ role: 'user' as const, content: 'Tell me about tea.' }], stage: 'synth' };
    const first = await llm.chat('realizer', request);
    expect(first).toEqual(await llm.chat('realizer', request));
    expect(first).toMatchObject({ offline: true, model: 'offline', cached: false });
    expect(first.text).toMatch(/^\[offline [0-9a-f]{8}\] Tell me about tea\.$/);
    expect(llm.isOffline('realizer')).toBe(true);
    expect(llm.modelFor('realizer')).toBe('offline');
    expect(llm.usage().byEndpoint.offline?.calls).toBe(2);
  });

  it('answers structured calls from request.offline(), validated by the schema', async () => {
    const request = { messages: [{ role: 'user' as const, content: 'x' }], schema: Note, schemaName: 'note' };
    await expect(
      llm.structured('judge', { ...request, offline: () => ({ note: 'heuristic' }) }),
    ).resolves.toEqual({
      note: 'heuristic',
    });
    const safe = await llm.safeStructured('judge', { ...request, offline: () => ({ note: 'h' }) });
    expect(safe).toEqual({ ok: true, value: { note: 'h' }, offline: true });
    const error = await llm.structured('judge', request).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).message).toContain('has no offline path');
  });
});

describe('applyLlmOverride', () => {
  it('points every known role and every mapped role at one endpoint', async () => {
    const server = await startFakeLlmServer();
    servers.push(server);
    const base = LlmConfig.parse({ cache: { enabled: false }, endpoints: {}, roles: {} });
    const config = applyLlmOverride(
      { ...base, roles: { persona: 'x' } },
      { baseUrl: server.url, model: 'fake-model' },
    );
    expect(config.roles).toEqual({ persona: 'cli', realizer: 'cli', judge: 'cli', embedder: 'cli' });
    const llm = createLlmClient(config);
    expect(llm.isOffline('judge')).toBe(false);
    expect(llm.modelFor('realizer')).toBe('fake-model');
    await expect(llm.structured('judge', ask())).resolves.toMatchObject({ verdict: 'consistent' });
  });
});

describe('endpoint limits and keys', () => {
  it('paces calls by requestsPerMinute on the injected clock', async () => {
    const server = await startFakeLlmServer();
    servers.push(server);
    let now = 0;
    const waits: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    };
    const llm = fakeClient(server.url, { requestsPerMinute: 2 }, { clock });
    for (let index = 0; index < 3; index++) await llm.structured('judge', ask(index));
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBe(30_000);
    expect(server.stats.chatRequests).toBe(3);
  });

  it('names the missing API key variable', async () => {
    const llm = fakeClient('http://127.0.0.1:9/v1', { apiKeyEnv: 'PF_TEST_MISSING_KEY' }, { env: {} });
    const error = await llm.structured('judge', ask()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).message).toContain('PF_TEST_MISSING_KEY');
  });
});
