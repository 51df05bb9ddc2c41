import { z } from 'zod';

/** A named OpenAI-compatible endpoint. Owned by src/llm (see its README section in ARCHITECTURE.md). */
export const EndpointConfig = z
  .object({
    baseUrl: z
      .union([z.string().url(), z.array(z.string().url()).min(1)])
      .describe('One or more base URLs (…/v1); several are load-balanced by least requests in flight.'),
    model: z.string().min(1).describe('Model name sent in each request (`model` of the OpenAI API).'),
    apiKeyEnv: z
      .string()
      .optional()
      .describe('Name of the environment variable holding the API key (never the key itself).'),
    maxConcurrency: z
      .number()
      .int()
      .min(1)
      .default(16)
      .describe('Requests in flight at most on this endpoint (adaptive concurrency starts here).'),
    requestsPerMinute: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Client-side rate limit in requests per minute; none when unset.'),
    tokensPerMinute: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Client-side rate limit in tokens per minute; none when unset.'),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .default(120_000)
      .describe('Time a request may take before it is cancelled and retried, in milliseconds.'),
    maxRetries: z
      .number()
      .int()
      .min(0)
      .default(4)
      .describe('Retries of a failed request (network error, 5xx, timeout) with exponential backoff.'),
    maxThrottledRounds: z
      .number()
      .int()
      .min(0)
      .default(30)
      .describe(
        "Throttling is not failure: a call still answered 429 after its `maxRetries` waits out the server's Retry-After (else 1 s, doubling to 30 s) and is sent again up to this many more rounds (a 429 saying the quota is used up fails at once).",
      ),
    priceInputPerM: z.number().min(0).default(0).describe('USD per 1M prompt / completion tokens.'),
    priceOutputPerM: z
      .number()
      .min(0)
      .default(0)
      .describe('USD per 1M completion tokens (for cost figures and the budget).'),
    priceCachedInputPerM: z
      .number()
      .min(0)
      .optional()
      .describe(
        'USD per 1M prompt tokens the endpoint reports serving from its prefix cache (`usage.prompt_tokens_details.cached_tokens`); unset: billed at `priceInputPerM`.',
      ),
    structuredOutput: z
      .enum(['auto', 'json_schema', 'json_object', 'instructions'])
      .default('auto')
      .describe(
        'How to ask for structured output; `auto` tries json_schema, then json_object, then instructions.',
      ),
    maxTokens: z
      .number()
      .int()
      .min(1)
      .default(2048)
      .describe(
        'Completion-token cap sent when a request sets none; also the worst case the budget check assumes.',
      ),
    maxSchemaRetries: z
      .number()
      .int()
      .min(0)
      .default(2)
      .describe(
        'Re-asks (with the validation error) when an answer is not schema-valid JSON; a request may override.',
      ),
    minConcurrency: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe('Adaptive concurrency never shrinks below this (it halves on each 429, AIMD).'),
    embeddingBatchSize: z.number().int().min(1).default(256).describe('Texts per `/v1/embeddings` request.'),
  })
  .strict();
export type EndpointConfig = z.infer<typeof EndpointConfig>;

export const LlmConfig = z
  .object({
    endpoints: z
      .record(z.string(), EndpointConfig)
      .default({})
      .describe(
        'Named OpenAI-compatible endpoints, e.g. `main: { baseUrl: http://gpu1:8000/v1, model: Qwen/Qwen3-8B }`.',
      ),
    roles: z
      .record(z.string(), z.string())
      .default({})
      .describe('role → endpoint name; roles with no endpoint use the offline backend.'),
    offline: z
      .object({
        embeddingDimensions: z
          .number()
          .int()
          .min(8)
          .default(384)
          .describe('Dimension of the offline hashed bag-of-words/char-n-gram embedding.'),
      })
      .strict()
      .prefault({})
      .describe('The deterministic offline backend used by roles with no endpoint.'),
    cache: z
      .object({
        enabled: z.boolean().default(true).describe('Read and write the answer cache.'),
        dir: z.string().default('.pf-cache/llm').describe('Cache folder, relative to the working directory.'),
      })
      .strict()
      .prefault({})
      .describe('On-disk cache of model answers keyed by request, so a rerun does not pay twice.'),
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
