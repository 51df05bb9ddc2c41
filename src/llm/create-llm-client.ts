import type OpenAI from 'openai';
import { BudgetExceededError, LlmCallError, LlmSchemaError } from '../errors/index.js';
import type { LlmConfig } from '../schemas/llm-config.js';
import { hashValue } from '../util/hash.js';
import { type Answer, createCompleter } from './chat-completion.js';
import { type Clock, systemClock } from './clock.js';
import { createDiskCache, type DiskCache } from './disk-cache.js';
import { createEndpoint, type Endpoint } from './endpoint-pool.js';
import { estimateCost } from './estimate-cost.js';
import { isMalformedResponse, toLlmCallError } from './map-sdk-error.js';
import { offlineChatText, offlineEmbedding } from './offline-backend.js';
import { describeIssues, extractJson, schemaInfo } from './structured-output.js';
import { estimateMessagesTokens, estimateTokens } from './token-estimate.js';
import type { ChatRequest, ChatResult, LlmClient, SafeResult, StructuredRequest } from './types.js';
import { createUsageLedger } from './usage-ledger.js';

export interface CreateLlmClientOptions {
  /** Cache folder. @default config.cache.dir */
  cacheDir?: string;
  /** Turn the disk cache on or off. @default config.cache.enabled */
  cache?: boolean;
  /** Stop (BudgetExceededError) before a call whose worst-case cost would pass this. @default no limit */
  budgetUsd?: number;
  /** fetch handed to the openai SDK (tests count requests with it). @default createNodeHttpFetch() */
  fetch?: typeof globalThis.fetch;
  /** Where API keys named by `apiKeyEnv` are read. @default process.env */
  env?: Record<string, string | undefined>;
  /** Pacing for requests/min and tokens/min limits. @default systemClock */
  clock?: Clock;
}

/** Run-time state of one endpoint, for the manifest and tests. */
export interface EndpointStats {
  model: string;
  concurrencyLimit: number;
  concurrencyShrinks: number;
  structuredMode: string;
  requestsByBaseUrl: Record<string, number>;
}

export interface LlmClientHandle extends LlmClient {
  /** State of every endpoint used so far. */
  endpointStats(): Record<string, EndpointStats>;
}

const DEFAULT_STAGE = 'default';

/**
 * Creates the one LLM client a run uses: roles map to named endpoints (or to the offline
 * backend), calls go through the openai SDK (its retries, timeouts and Retry-After), answers are
 * cached on disk by content, usage and cost are counted per stage and endpoint, and the budget
 * is enforced before each call.
 *
 * @example
 * const llm = createLlmClient(config.llm, { budgetUsd: 5 });
 * const reply = await llm.structured('judge', { messages, schema: Verdict, schemaName: 'verdict' });
 */
export function createLlmClient(config: LlmConfig, options: CreateLlmClientOptions = {}): LlmClientHandle {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const cacheOn = options.cache ?? config.cache.enabled;
  const cache: DiskCache | undefined = cacheOn
    ? createDiskCache(options.cacheDir ?? config.cache.dir)
    : undefined;
  const ledger = createUsageLedger(options.budgetUsd);
  const endpoints = new Map<string, Endpoint>();
  const dimensions = config.offline.embeddingDimensions;

  const endpointFor = (role: string): Endpoint | undefined => {
    const name = config.roles[role];
    if (name === undefined) return undefined;
    let endpoint = endpoints.get(name);
    if (endpoint === undefined) {
      const endpointConfig = config.endpoints[name];
      if (endpointConfig === undefined) {
        throw new LlmCallError(name, `role "${role}" maps to an endpoint that is not defined`, {
          hint: 'add it under llm.endpoints or remove the role',
        });
      }
      const endpointOptions =
        options.fetch === undefined ? { env, clock } : { env, clock, fetch: options.fetch };
      endpoint = createEndpoint(name, endpointConfig, endpointOptions);
      endpoints.set(name, endpoint);
    }
    return endpoint;
  };

  const complete = createCompleter({ cache, ledger });

  const withFailureCount = async <T>(stage: string, endpoint: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof BudgetExceededError)) ledger.failure(stage, endpoint);
      throw error;
    }
  };

  const chat = async (role: string, request: ChatRequest): Promise<ChatResult> => {
    const stage = request.stage ?? DEFAULT_STAGE;
    const endpoint = endpointFor(role);
    if (endpoint === undefined) {
      const text = offlineChatText(request.messages);
      const usage = {
        promptTokens: estimateMessagesTokens(request.messages),
        completionTokens: estimateTokens(text),
      };
      ledger.offline(stage, usage);
      return { text, usage, cached: false, offline: true, model: 'offline' };
    }
    return withFailureCount(stage, endpoint.name, async () => {
      const badAnswers = endpoint.config.maxSchemaRetries;
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await complete(endpoint, stage, request.messages, request);
          const usage = { promptTokens: answer.promptTokens, completionTokens: answer.completionTokens };
          return {
            text: answer.text,
            usage,
            cached: answer.cached,
            offline: false,
            model: endpoint.config.model,
          };
        } catch (error) {
          if (!isMalformedResponse(error) || attempt >= badAnswers)
            throw toLlmCallError(endpoint.name, error);
        }
      }
    });
  };

  const structured = async <T>(role: string, request: StructuredRequest<T>): Promise<T> => {
    const stage = request.stage ?? DEFAULT_STAGE;
    const endpoint = endpointFor(role);
    if (endpoint === undefined) return offlineStructured(role, stage, request);
    return withFailureCount(stage, endpoint.name, async () => {
      const info = schemaInfo(request.schema);
      const maxRetries = request.maxSchemaRetries ?? endpoint.config.maxSchemaRetries;
      const messages = [...request.messages];
      const firstAsk = [...request.messages];
      let lastIssues = '';
      for (let attempt = 0; attempt <= maxRetries; attempt++) {
        let answer: Answer;
        try {
          answer = await complete(endpoint, stage, messages, request, {
            info,
            name: request.schemaName,
            // Only answers that fit the schema are cached: a bad answer is asked again next time.
            accept: (text) => {
              const json = extractJson(text);
              return json !== undefined && request.schema.safeParse(json.value).success;
            },
            ...(attempt > 0 ? { alsoCacheFor: firstAsk } : {}),
          });
        } catch (error) {
          // A truncated or non-JSON body is invisible to the SDK's retries: count it as a bad answer.
          if (!isMalformedResponse(error)) throw toLlmCallError(endpoint.name, error);
          lastIssues = `malformed response body (${(error as Error).message})`;
          continue;
        }
        const extracted = extractJson(answer.text);
        const parsed = extracted === undefined ? undefined : request.schema.safeParse(extracted.value);
        if (parsed?.success === true) return parsed.data;
        lastIssues = parsed === undefined ? 'the answer is not JSON' : describeIssues(parsed.error);
        messages.push(
          { role: 'assistant', content: answer.text },
          {
            role: 'user',
            content: `That answer does not match the required JSON Schema: ${lastIssues}. Reply with only the corrected JSON.`,
          },
        );
      }
      throw new LlmSchemaError(endpoint.name, maxRetries + 1, lastIssues);
    });
  };

  const offlineStructured = <T>(role: string, stage: string, request: StructuredRequest<T>): T => {
    if (request.offline === undefined) {
      ledger.failure(stage, 'offline');
      throw new LlmCallError(
        'offline',
        `role "${role}" has no endpoint and this caller (${request.schemaName}) has no offline path`,
        {
          hint: `map "${role}" to an endpoint under llm.roles, or run with --llm-base-url URL --llm-model NAME`,
        },
      );
    }
    const parsed = request.schema.safeParse(request.offline());
    if (!parsed.success) {
      ledger.failure(stage, 'offline');
      throw new LlmSchemaError('offline', 1, describeIssues(parsed.error));
    }
    ledger.offline(stage, { promptTokens: estimateMessagesTokens(request.messages), completionTokens: 0 });
    return parsed.data;
  };

  const embed = async (
    role: string,
    texts: string[],
    embedOptions: { stage?: string } = {},
  ): Promise<number[][]> => {
    const stage = embedOptions.stage ?? DEFAULT_STAGE;
    const endpoint = endpointFor(role);
    if (endpoint === undefined) {
      ledger.offline(stage, {
        promptTokens: texts.reduce((sum, text) => sum + estimateTokens(text), 0),
        completionTokens: 0,
      });
      return texts.map((text) => offlineEmbedding(text, dimensions));
    }
    return withFailureCount(stage, endpoint.name, async () => {
      const out: number[][] = [];
      for (let start = 0; start < texts.length; start += endpoint.config.embeddingBatchSize) {
        const batch = texts.slice(start, start + endpoint.config.embeddingBatchSize);
        out.push(...(await embedBatch(endpoint, stage, batch)));
      }
      return out;
    });
  };

  const embedBatch = async (endpoint: Endpoint, stage: string, input: string[]): Promise<number[][]> => {
    const key =
      cache === undefined
        ? undefined
        : hashValue({ kind: 'embeddings', model: endpoint.config.model, input });
    if (cache !== undefined && key !== undefined) {
      const entry = (await cache.get(key)) as { embeddings?: number[][] } | undefined;
      if (Array.isArray(entry?.embeddings)) {
        ledger.hit(stage, endpoint.name);
        return entry.embeddings;
      }
    }
    const promptEstimate = input.reduce((sum, text) => sum + estimateTokens(text), 0);
    const worstCase = estimateCost({ promptTokens: promptEstimate, completionTokens: 0 }, endpoint.config);
    let hold = 0;
    let response: OpenAI.Embeddings.CreateEmbeddingResponse | undefined;
    let embeddings: number[][] = [];
    // A 200 whose body is not an embeddings response (an HTML error page, a cut body) is retried
    // like any bad answer, up to maxSchemaRetries times, then fails with a retryable code.
    for (let attempt = 0; ; attempt++) {
      let problem: string;
      try {
        response = await endpoint.run(promptEstimate, (client) => {
          // Sent again after throttling: one reservation per call, never two.
          ledger.release(hold);
          hold = 0;
          hold = ledger.reserve(worstCase);
          return client.embeddings.create({ model: endpoint.config.model, input, encoding_format: 'float' });
        });
        const data = (response as { data?: unknown } | undefined)?.data;
        if (!Array.isArray(data)) {
          problem = 'the response is not an embeddings list';
        } else {
          embeddings = [...(data as OpenAI.Embeddings.Embedding[])]
            .sort((a, b) => a.index - b.index)
            .map((item) => item.embedding);
          problem =
            embeddings.length !== input.length
              ? `asked for ${input.length} embeddings, got ${embeddings.length}`
              : embeddings.every((vector) => Array.isArray(vector) && vector.every((x) => Number.isFinite(x)))
                ? ''
                : 'an embedding is not a list of numbers';
        }
      } catch (error) {
        ledger.release(hold);
        hold = 0;
        if (!isMalformedResponse(error) || attempt >= endpoint.config.maxSchemaRetries) {
          throw toLlmCallError(endpoint.name, error);
        }
        continue;
      }
      if (problem === '') break;
      ledger.release(hold);
      hold = 0;
      if (attempt >= endpoint.config.maxSchemaRetries) throw new LlmCallError(endpoint.name, problem);
    }
    const promptTokens = response?.usage?.prompt_tokens ?? promptEstimate;
    ledger.settle(hold, stage, endpoint.name, {
      promptTokens,
      completionTokens: 0,
      costUsd: estimateCost({ promptTokens, completionTokens: 0 }, endpoint.config),
    });
    if (cache !== undefined && key !== undefined)
      await cache.set(key, { model: endpoint.config.model, embeddings });
    return embeddings;
  };

  return {
    chat,
    structured,
    async safeStructured<T>(role: string, request: StructuredRequest<T>): Promise<SafeResult<T>> {
      try {
        const value = await structured(role, request);
        return { ok: true, value, offline: config.roles[role] === undefined };
      } catch (error) {
        // Running out of budget must stop the run, not quarantine every remaining record.
        if (error instanceof BudgetExceededError) throw error;
        return { ok: false, error: error as Error };
      }
    },
    embed,
    isOffline: (role) => config.roles[role] === undefined,
    modelFor: (role) => {
      const name = config.roles[role];
      return name === undefined ? 'offline' : (config.endpoints[name]?.model ?? 'offline');
    },
    usage: () => ledger.snapshot(),
    endpointStats: () =>
      Object.fromEntries(
        [...endpoints.values()].map((endpoint) => [
          endpoint.name,
          {
            model: endpoint.config.model,
            concurrencyLimit: endpoint.concurrency.limit,
            concurrencyShrinks: endpoint.concurrency.shrinks,
            structuredMode: endpoint.mode,
            requestsByBaseUrl: endpoint.requestsByBaseUrl(),
          },
        ]),
      ),
  };
}
