import { z } from 'zod';

/** A named OpenAI-compatible endpoint. Owned by src/llm (see its README section in ARCHITECTURE.md). */
export const EndpointConfig = z
  .object({
    /** One or more base URLs (…/v1); several are load-balanced by least requests in flight. */
    baseUrl: z.union([z.string().url(), z.array(z.string().url()).min(1)]),
    model: z.string().min(1),
    /** Name of the environment variable holding the API key (never the key itself). */
    apiKeyEnv: z.string().optional(),
    maxConcurrency: z.number().int().min(1).default(16),
    requestsPerMinute: z.number().int().min(1).optional(),
    tokensPerMinute: z.number().int().min(1).optional(),
    timeoutMs: z.number().int().min(100).default(120_000),
    maxRetries: z.number().int().min(0).default(4),
    /**
     * Throttling is not failure: a call still answered 429 after its `maxRetries` waits out the
     * server's Retry-After (else 1 s, doubling to 30 s) and is sent again up to this many more
     * rounds (a 429 saying the quota is used up fails at once).
     */
    maxThrottledRounds: z.number().int().min(0).default(30),
    /** USD per 1M prompt / completion tokens. */
    priceInputPerM: z.number().min(0).default(0),
    priceOutputPerM: z.number().min(0).default(0),
    /**
     * USD per 1M prompt tokens the endpoint reports serving from its prefix cache
     * (`usage.prompt_tokens_details.cached_tokens`); unset: billed at `priceInputPerM`.
     */
    priceCachedInputPerM: z.number().min(0).optional(),
    /** How to ask for structured output; `auto` tries json_schema, then json_object, then instructions. */
    structuredOutput: z.enum(['auto', 'json_schema', 'json_object', 'instructions']).default('auto'),
    /** Completion-token cap sent when a request sets none; also the worst case the budget check assumes. */
    maxTokens: z.number().int().min(1).default(2048),
    /** Re-asks (with the validation error) when an answer is not schema-valid JSON; a request may override. */
    maxSchemaRetries: z.number().int().min(0).default(2),
    /** Adaptive concurrency never shrinks below this (it halves on each 429, AIMD). */
    minConcurrency: z.number().int().min(1).default(1),
    /** Texts per `/v1/embeddings` request. */
    embeddingBatchSize: z.number().int().min(1).default(256),
  })
  .strict();
export type EndpointConfig = z.infer<typeof EndpointConfig>;

export const LlmConfig = z
  .object({
    endpoints: z.record(z.string(), EndpointConfig).default({}),
    /** role → endpoint name; roles with no endpoint use the offline backend. */
    roles: z.record(z.string(), z.string()).default({}),
    /** The deterministic offline backend used by roles with no endpoint. */
    offline: z
      .object({
        /** Dimension of the offline hashed bag-of-words/char-n-gram embedding. */
        embeddingDimensions: z.number().int().min(8).default(384),
      })
      .strict()
      .prefault({}),
    cache: z
      .object({ enabled: z.boolean().default(true), dir: z.string().default('.pf-cache/llm') })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((value, context) => {
    for (const [role, endpoint] of Object.entries(value.roles)) {
      if (endpoint in value.endpoints) continue;
      const known = Object.keys(value.endpoints);
      context.addIssue({
        code: 'custom',
        path: ['roles', role],
        input: endpoint,
        message: `role "${role}" names endpoint "${endpoint}", which is not defined; fix: use one of ${known.length > 0 ? known.join(', ') : '(none: add it under llm.endpoints, or delete the role to run it offline)'}`,
      });
    }
  });
export type LlmConfig = z.infer<typeof LlmConfig>;
