import type OpenAI from 'openai';
import { hashValue } from '../util/hash.js';
import type { DiskCache } from './disk-cache.js';
import type { Endpoint } from './endpoint-pool.js';
import { estimateCost } from './estimate-cost.js';
import { isUnsupportedFormat, MalformedResponseError } from './map-sdk-error.js';
import { type SchemaInfo, STRUCTURED_MODES, schemaInstruction } from './structured-output.js';
import { estimateMessagesTokens, estimateTokens } from './token-estimate.js';
import type { ChatMessage, ChatRequest } from './types.js';
import type { UsageLedger } from './usage-ledger.js';

/** One answered chat completion (from the server or the cache). */
export interface Answer {
  text: string;
  promptTokens: number;
  completionTokens: number;
  cached: boolean;
}

export type Complete = (
  endpoint: Endpoint,
  stage: string,
  messages: ChatMessage[],
  request: ChatRequest,
  structured?: {
    info: SchemaInfo;
    name: string;
    /** Whether an answer is usable; unusable answers are neither cached nor served from the cache. */
    accept?: (text: string) => boolean;
    /**
     * Also cache a usable answer under these messages: the first ask of a question answered only
     * after a re-ask, so a rerun gets the corrected answer at once and re-bills nothing.
     */
    alsoCacheFor?: ChatMessage[];
  },
) => Promise<Answer>;

/**
 * The single path every chat completion takes: cache lookup by content (model, messages,
 * sampling params, seed, schema hash — not the structured mode, so a rerun hits whatever mode
 * the endpoint ends up in), budget reservation, the SDK call, usage settlement, cache write.
 * In `auto` mode a 400/422 steps the endpoint's structured mode down (json_schema → json_object
 * → instructions) and the call is resent; that step is sticky for the endpoint.
 *
 * @example const complete = createCompleter({ cache, ledger }); await complete(endpoint, 'synth', messages, request);
 */
export function createCompleter(deps: { cache: DiskCache | undefined; ledger: UsageLedger }): Complete {
  const { cache, ledger } = deps;
  /** One chat completion (cache → budget → SDK), stepping the structured mode down on a 400. */
  return async (
    endpoint: Endpoint,
    stage: string,
    messages: ChatMessage[],
    request: ChatRequest,
    structured?: Parameters<Complete>[4],
  ): Promise<Answer> => {
    const maxTokens = request.maxTokens ?? endpoint.config.maxTokens;
    const keyFor = (forMessages: ChatMessage[]) =>
      cache === undefined
        ? undefined
        : hashValue({
            model: endpoint.config.model,
            messages: forMessages,
            temperature: request.temperature,
            topP: request.topP,
            maxTokens,
            seed: request.seed,
            schema: structured?.info.hash,
          });
    const key = keyFor(messages);
    if (cache !== undefined && key !== undefined && request.noCache !== true) {
      const entry = (await cache.get(key)) as Partial<Answer> | undefined;
      if (typeof entry?.text === 'string' && structured?.accept?.(entry.text) !== false) {
        ledger.hit(stage, endpoint.name);
        return {
          text: entry.text,
          promptTokens: entry.promptTokens ?? 0,
          completionTokens: entry.completionTokens ?? 0,
          cached: true,
        };
      }
    }
    const promptEstimate = estimateMessagesTokens(messages) + (structured?.info.tokens ?? 0);
    const worstCase = estimateCost(
      { promptTokens: promptEstimate, completionTokens: maxTokens },
      endpoint.config,
    );
    // The worst case is reserved when the request is sent (after it got a concurrency slot), so
    // calls waiting in the queue hold no budget; every failure path releases it.
    let hold: number | undefined;
    for (;;) {
      const mode = structured === undefined ? undefined : endpoint.mode;
      const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
        model: endpoint.config.model,
        messages:
          mode === undefined || mode === 'json_schema'
            ? messages
            : [schemaInstruction(structured!.info), ...messages],
        max_tokens: maxTokens,
      };
      if (request.temperature !== undefined) body.temperature = request.temperature;
      if (request.topP !== undefined) body.top_p = request.topP;
      if (request.seed !== undefined) body.seed = request.seed;
      if (mode === 'json_schema') {
        body.response_format = {
          type: 'json_schema',
          json_schema: { name: structured!.name, schema: structured!.info.jsonSchema },
        };
      } else if (mode === 'json_object') {
        body.response_format = { type: 'json_object' };
      }
      try {
        const completion = await endpoint.run(promptEstimate, (client) => {
          // Sent again after throttling: one reservation per call, never two.
          if (hold !== undefined) ledger.release(hold);
          hold = undefined;
          hold = ledger.reserve(worstCase);
          return client.chat.completions.create(
            body,
            request.signal === undefined ? undefined : { signal: request.signal },
          );
        });
        // A non-JSON body comes back from the SDK as a string rather than a completion object.
        const text =
          typeof completion === 'object' && completion !== null
            ? completion.choices?.[0]?.message?.content
            : undefined;
        if (typeof text !== 'string')
          throw new MalformedResponseError('the response has no choices[0].message.content');
        const answer: Answer = {
          text,
          promptTokens: completion.usage?.prompt_tokens ?? promptEstimate,
          completionTokens: completion.usage?.completion_tokens ?? estimateTokens(text),
          cached: false,
        };
        // OpenAI, vLLM (--enable-prompt-tokens-details) and SGLang say prompt_tokens_details.cached_tokens;
        // DeepSeek says prompt_cache_hit_tokens.
        const usage = completion.usage as
          | (typeof completion.usage & { prompt_cache_hit_tokens?: number })
          | undefined;
        const cachedPromptTokens =
          usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens ?? 0;
        ledger.settle(hold ?? 0, stage, endpoint.name, {
          promptTokens: answer.promptTokens,
          cachedPromptTokens,
          completionTokens: answer.completionTokens,
          costUsd: estimateCost({ ...answer, cachedPromptTokens }, endpoint.config),
        });
        if (cache !== undefined && key !== undefined && structured?.accept?.(text) !== false) {
          const entry = {
            model: endpoint.config.model,
            text,
            promptTokens: answer.promptTokens,
            completionTokens: answer.completionTokens,
          };
          await cache.set(key, entry);
          const first = structured?.alsoCacheFor === undefined ? undefined : keyFor(structured.alsoCacheFor);
          if (first !== undefined && first !== key) await cache.set(first, entry);
        }
        return answer;
      } catch (error) {
        if (
          mode !== undefined &&
          mode !== 'instructions' &&
          endpoint.config.structuredOutput === 'auto' &&
          isUnsupportedFormat(error)
        ) {
          // Sticky and monotone: concurrent calls that all saw the 400 step down at most once each.
          const next = STRUCTURED_MODES[STRUCTURED_MODES.indexOf(mode) + 1];
          if (next !== undefined && STRUCTURED_MODES.indexOf(endpoint.mode) < STRUCTURED_MODES.indexOf(next))
            endpoint.mode = next;
          if (hold !== undefined) ledger.release(hold);
          hold = undefined;
          continue;
        }
        if (hold !== undefined) ledger.release(hold);
        throw error;
      }
    }
  };
}
