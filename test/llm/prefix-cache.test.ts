import { afterAll, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/llm/index.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { startFakeLlmServer } from '../support/fake-llm.js';

/**
 * Cached prompt tokens as an OpenAI-compatible endpoint reports them
 * (`usage.prompt_tokens_details.cached_tokens`): the fake server simulates a prefix cache, the llm
 * layer records what the endpoint reported and bills it at the cached price.
 */
describe('prefix-cached prompt tokens', async () => {
  const server = await startFakeLlmServer();
  afterAll(() => server.close());
  const system = `You review conversations. ${'Score each reply on coherence and safety. '.repeat(20)}`;
  const ask = (question: string) =>
    fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'fake',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: question },
        ],
      }),
    }).then((response) => response.json() as Promise<{ usage: Record<string, unknown> }>);

  it('the fake server reports the shared leading blocks of a repeated prefix as cached, in 16-token blocks', async () => {
    const first = await ask('Is the first session coherent?');
    const second = await ask('Is the second session coherent?');
    expect(first.usage.prompt_tokens_details).toEqual({ cached_tokens: 0 });
    const cached = (second.usage.prompt_tokens_details as { cached_tokens: number }).cached_tokens;
    expect(cached % 16).toBe(0);
    // The system prompt (~220 tokens) is served from cache; the differing question is not.
    expect(cached).toBeGreaterThan(160);
    expect(cached).toBeLessThan(second.usage.prompt_tokens as number);
    const again = await ask('Is the second session coherent?');
    expect(
      (again.usage.prompt_tokens_details as { cached_tokens: number }).cached_tokens,
    ).toBeGreaterThanOrEqual(cached);
  });

  it('the llm layer records cached prompt tokens per stage and bills them at the cached price', async () => {
    const config = LlmConfig.parse({
      endpoints: {
        fake: {
          baseUrl: server.url,
          model: 'fake',
          priceInputPerM: 1,
          priceOutputPerM: 2,
          priceCachedInputPerM: 0.25,
        },
      },
      roles: { judge: 'fake' },
      cache: { enabled: false },
    });
    const llm = createLlmClient(config);
    const messages = [
      { role: 'system' as const, content: system },
      { role: 'user' as const, content: 'Is the third session coherent?' },
    ];
    await llm.chat('judge', { messages, stage: 'validate' });
    await llm.chat('judge', {
      messages: [messages[0]!, { role: 'user', content: 'And the fourth?' }],
      stage: 'validate',
    });
    const usage = llm.usage().byStage.validate!;
    expect(usage.cachedPromptTokens).toBeGreaterThan(160);
    const uncached = usage.promptTokens - (usage.cachedPromptTokens ?? 0);
    expect(usage.costUsd).toBeCloseTo(
      (uncached * 1 + (usage.cachedPromptTokens ?? 0) * 0.25 + usage.completionTokens * 2) / 1e6,
      12,
    );
  });
});
