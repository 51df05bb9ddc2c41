import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeChatRequest,
  type FakeLlmServer,
  startFakeLlmServer,
} from '../../src/dev/fake-llm/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import { createRewardApp } from '../../src/reward/index.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected loosely in tests
type Loose = any;
const servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The reward app on the real llm layer, its judge role pointed at a fake OpenAI-compatible server. */
async function appWithFakeJudge(
  fake: Parameters<typeof startFakeLlmServer>[0],
  endpoint: { timeoutMs?: number; maxRetries?: number } = {},
) {
  const server = await startFakeLlmServer(fake);
  servers.push(server);
  const llm = createLlmClient(
    LlmConfig.parse({
      endpoints: {
        judge: {
          baseUrl: server.url,
          model: 'fake-model',
          maxConcurrency: 4,
          timeoutMs: 10_000,
          maxRetries: 0,
          ...endpoint,
        },
      },
      roles: { judge: 'judge' },
    }),
    { cache: false, env: {} },
  );
  return { app: createRewardApp({ llm }), server };
}

const ITEMS = [
  { completion: '<think>r</think><answer>Paris</answer>', solution: 'Paris' },
  { completion: '<think>r</think><answer>Rome</answer>', solution: 'Paris' },
];

async function score(app: ReturnType<typeof createRewardApp>, body: unknown): Promise<Loose> {
  const response = await app.request('/v1/rewards', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** A judge that reads each packed item and answers CORRECT when the response matches the reference. */
function judgeAnswers(request: FakeChatRequest): unknown {
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const items = user.split('### Item ').slice(1);
  return {
    results: items.map((text) => ({
      id: Number.parseInt(text, 10),
      label: /REFERENCE: (.*)\nRESPONSE: \1$/m.test(text) ? 'CORRECT' : 'WRONG',
    })),
  };
}

describe('judge through the llm layer (fake OpenAI-compatible server)', () => {
  it('judges open-ended accuracy with one packed call', async () => {
    const { app, server } = await appWithFakeJudge({ respond: judgeAnswers });
    const body = await score(app, { reward: 'accuracy', items: ITEMS });
    expect(body.rewards).toEqual([1, 0]);
    expect(body.usage).toMatchObject({ judge_calls: 1, judge_model: 'fake-model', offline: false });
    expect(server.stats.chatRequests).toBe(1);
  });

  it('answers judge_error nulls when the judge returns 500s', async () => {
    const { app } = await appWithFakeJudge(
      { faults: { rate: 1, kinds: ['500'], retryAfterMs: 1 } },
      { maxRetries: 1 },
    );
    const started = performance.now();
    const body = await score(app, { reward: ['format', 'accuracy'], items: ITEMS, timeout_ms: 5000 });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(body.rewards).toEqual([null, null]);
    expect(body.components.format).toEqual([1, 1]);
    expect(body.errors.map((error: Loose) => [error.reward, error.code])).toEqual([
      ['accuracy', 'judge_error'],
      ['accuracy', 'judge_error'],
    ]);
  });

  it('answers timeout nulls within the request timeout when the judge hangs', async () => {
    const { app } = await appWithFakeJudge({ faults: { rate: 1, kinds: ['hang'], hangMs: 3000 } });
    const started = performance.now();
    const body = await score(app, { reward: 'accuracy', items: ITEMS, timeout_ms: 300 });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3000);
    expect(body.rewards).toEqual([null, null]);
    expect(body.errors.map((error: Loose) => error.code)).toEqual(['timeout', 'timeout']);
  });

  it('answers judge_error when the llm layer times out a hung judge before the request deadline', async () => {
    const { app } = await appWithFakeJudge(
      { faults: { rate: 1, kinds: ['hang'], hangMs: 3000 } },
      { timeoutMs: 200 },
    );
    const body = await score(app, { reward: 'accuracy', items: ITEMS, timeout_ms: 2500 });
    expect(body.errors.map((error: Loose) => error.code)).toEqual(['judge_error', 'judge_error']);
  });

  it('answers parse_error when the judge keeps answering off-schema', async () => {
    const { app } = await appWithFakeJudge({ respond: () => 'I think both are fine.' });
    const body = await score(app, { reward: 'accuracy', items: ITEMS });
    expect(body.rewards).toEqual([null, null]);
    expect(body.errors.map((error: Loose) => error.code)).toEqual(['parse_error', 'parse_error']);
  });
});
