import { z } from 'zod';
import { type CreateLlmClientOptions, createLlmClient } from '../../src/llm/index.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';

/** The structured answer most tests ask for. */
export const Verdict = z
  .object({
    verdict: z.enum(['consistent', 'drifted']),
    score: z.number().min(0).max(1),
    reasons: z.array(z.string().min(3)).min(1).max(3),
  })
  .strict();

/** A client with one `fake` endpoint serving the `judge` and `embedder` roles. */
export function fakeClient(
  baseUrl: string | string[],
  endpoint: Record<string, unknown> = {},
  options: CreateLlmClientOptions = {},
) {
  const config = LlmConfig.parse({
    endpoints: { fake: { baseUrl, model: 'fake-model', maxRetries: 3, timeoutMs: 5_000, ...endpoint } },
    roles: { judge: 'fake', embedder: 'fake' },
    cache: { enabled: false },
  });
  return createLlmClient(config, options);
}

/** A fetch that counts requests per path (the SDK's retries included). */
export function countingFetch(): { fetch: typeof globalThis.fetch; count: () => number } {
  let requests = 0;
  return {
    fetch: (input, init) => {
      requests++;
      return globalThis.fetch(input, init);
    },
    count: () => requests,
  };
}

export const ask = (index = 0) => ({
  messages: [
    { role: 'user' as const, content: `Does turn ${index} match the persona's plan? Reply as JSON.` },
  ],
  schema: Verdict,
  schemaName: 'verdict',
  stage: 'validate',
});
