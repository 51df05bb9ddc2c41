import { AsyncLocalStorage } from 'node:async_hooks';
import OpenAI from 'openai';
import { LlmCallError } from '../errors/index.js';
import type { EndpointConfig } from '../schemas/llm-config.js';
import { type AdaptiveConcurrency, createAdaptiveConcurrency } from './adaptive-concurrency.js';
import type { Clock } from './clock.js';
import { createNodeHttpFetch } from './node-http-fetch.js';
import { createRateLimiter, type RateLimiter } from './rate-limiter.js';
import { STRUCTURED_MODES, type StructuredMode } from './structured-output.js';

/** One base URL of an endpoint with its own SDK client. */
interface Replica {
  baseUrl: string;
  client: OpenAI;
  inFlight: number;
}

/**
 * A named endpoint at run time: one openai SDK client per base URL (least requests in flight
 * wins), an adaptive concurrency gate, optional requests/min and tokens/min limiters, and the
 * structured-output mode that worked last. The SDK does every HTTP retry (`maxRetries`,
 * `timeout`, Retry-After); the fetch wrapper only watches for 429s to shrink concurrency.
 *
 * @example
 * const endpoint = createEndpoint('main', config, { env: process.env, clock: systemClock });
 * await endpoint.run(120, (client) => client.chat.completions.create(body));
 */
export interface Endpoint {
  readonly name: string;
  readonly config: EndpointConfig;
  readonly concurrency: AdaptiveConcurrency;
  /** Current structured-output mode (sticky: only ever steps down after a 400). */
  mode: StructuredMode;
  run<T>(estimatedTokens: number, call: (client: OpenAI) => Promise<T>): Promise<T>;
  /** Requests sent per base URL (load-balancing evidence for tests and the manifest). */
  requestsByBaseUrl(): Record<string, number>;
}

export interface CreateEndpointOptions {
  env: Record<string, string | undefined>;
  clock: Clock;
  /** @default createNodeHttpFetch() (keep-alive node:http, see node-http-fetch.ts) */
  fetch?: typeof globalThis.fetch;
}

/** The concurrency slot of the call running in this async context (paused while it waits out a 429). */
const slots = new AsyncLocalStorage<{ paused: boolean }>();

export function createEndpoint(
  name: string,
  config: EndpointConfig,
  options: CreateEndpointOptions,
): Endpoint {
  const concurrency = createAdaptiveConcurrency({
    min: Math.min(config.minConcurrency, config.maxConcurrency),
    max: config.maxConcurrency,
  });
  const baseFetch = options.fetch ?? createNodeHttpFetch();
  // The SDK retries (and sleeps out Retry-After) between fetches of one call: a throttled call
  // gives its slot back for the wait and takes one again before its next attempt.
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const slot = slots.getStore();
    if (slot?.paused === true) {
      const wait = concurrency.resume();
      if (wait !== undefined) await wait;
      slot.paused = false;
    }
    const response = await baseFetch(input, init);
    if (response.status === 429) {
      concurrency.onThrottled();
      if (slot !== undefined && !slot.paused) {
        slot.paused = true;
        concurrency.pause();
      }
    }
    return response;
  };
  let apiKey = 'not-needed';
  if (config.apiKeyEnv !== undefined) {
    const value = options.env[config.apiKeyEnv];
    if (value === undefined || value === '') {
      throw new LlmCallError(name, `environment variable ${config.apiKeyEnv} (apiKeyEnv) is not set`, {
        hint: `export ${config.apiKeyEnv}=… or remove apiKeyEnv for a server that needs no key`,
      });
    }
    apiKey = value;
  }
  const urls = Array.isArray(config.baseUrl) ? config.baseUrl : [config.baseUrl];
  const replicas: Replica[] = urls.map((baseUrl) => ({
    baseUrl,
    inFlight: 0,
    client: new OpenAI({
      apiKey,
      baseURL: baseUrl,
      maxRetries: config.maxRetries,
      timeout: config.timeoutMs,
      fetch,
    }),
  }));
  const sent = new Map<string, number>();
  const rpm: RateLimiter | undefined =
    config.requestsPerMinute === undefined
      ? undefined
      : createRateLimiter(config.requestsPerMinute, options.clock);
  const tpm: RateLimiter | undefined =
    config.tokensPerMinute === undefined
      ? undefined
      : createRateLimiter(config.tokensPerMinute, options.clock);

  const pick = (): Replica => {
    let best = replicas[0] as Replica;
    for (const replica of replicas) if (replica.inFlight < best.inFlight) best = replica;
    return best;
  };

  return {
    name,
    config,
    concurrency,
    mode:
      config.structuredOutput === 'auto' ? (STRUCTURED_MODES[0] as StructuredMode) : config.structuredOutput,
    async run(estimatedTokens, call) {
      const wait = concurrency.acquire();
      if (wait !== undefined) await wait;
      const slot = { paused: false };
      try {
        if (rpm !== undefined) await rpm.take(1);
        if (tpm !== undefined) await tpm.take(estimatedTokens);
        const replica = pick();
        replica.inFlight++;
        sent.set(replica.baseUrl, (sent.get(replica.baseUrl) ?? 0) + 1);
        try {
          for (let round = 0; ; round++) {
            try {
              const result = await slots.run(slot, () => call(replica.client));
              concurrency.onSuccess();
              return result;
            } catch (error) {
              const wait = throttledWait(error, round, config.maxThrottledRounds);
              if (wait === undefined) throw error;
              await sleep(wait);
            }
          }
        } finally {
          replica.inFlight--;
        }
      } finally {
        if (!slot.paused) concurrency.release();
      }
    },
    requestsByBaseUrl: () => Object.fromEntries(sent),
  };
}

/**
 * How long to wait before sending again a call the SDK gave up on with a 429 (after its own
 * retries), or undefined when it is not throttling (another error, a used-up quota, no rounds left).
 */
function throttledWait(error: unknown, round: number, rounds: number): number | undefined {
  if (!(error instanceof OpenAI.APIError) || error.status !== 429 || round >= rounds) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code === 'insufficient_quota') return undefined;
  const headers = error.headers as Headers | undefined;
  const ms = Number.parseFloat(headers?.get?.('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, 60_000);
  const seconds = Number.parseFloat(headers?.get?.('retry-after') ?? '');
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 60_000);
  return Math.min(1000 * 2 ** round, 30_000);
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
