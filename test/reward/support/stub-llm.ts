import type { ChatRequest, LlmClient, StructuredRequest, Usage } from '../../../src/llm/types.js';

/**
 * A test-only `LlmClient` whose `structured` answers come from `respond` (the judge's batch
 * prompt in, the JSON value out). Counts calls. `offline: true` mimics a role with no endpoint.
 */
export interface StubLlm extends LlmClient {
  calls: Array<{ role: string; system: string; user: string }>;
  chatCalls: number;
}

export function createStubLlm(
  options: {
    offline?: boolean;
    model?: string;
    respond?: (request: { system: string; user: string }) => unknown | Promise<unknown>;
    /** What the health probe (`chat`) meets: an answer, or this error. */
    chatError?: string;
  } = {},
): StubLlm {
  const calls: StubLlm['calls'] = [];
  const usage: Usage = {
    calls: 0,
    cacheHits: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    failures: 0,
  };
  const client: StubLlm = {
    calls,
    chatCalls: 0,
    // Only the `/health` probe chats; the judge uses `structured`.
    async chat(_role: string, _request: ChatRequest) {
      client.chatCalls++;
      if (options.chatError !== undefined) throw new Error(options.chatError);
      return {
        text: 'pong',
        usage: { promptTokens: 1, completionTokens: 1 },
        cached: false,
        offline: false,
        model: 'stub-judge',
      };
    },
    async structured<T>(role: string, request: StructuredRequest<T>): Promise<T> {
      const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
      const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
      calls.push({ role, system, user });
      const value = await (options.respond ?? defaultRespond)({ system, user });
      return request.schema.parse(value);
    },
    async safeStructured<T>(role: string, request: StructuredRequest<T>) {
      try {
        return { ok: true as const, value: await client.structured(role, request), offline: false };
      } catch (error) {
        return { ok: false as const, error: error as Error };
      }
    },
    async embed(_role: string, texts: string[]) {
      return texts.map((text) => [text.length % 7, text.length % 5, 1]);
    },
    isOffline: () => options.offline ?? false,
    modelFor: () => (options.offline === true ? 'offline' : (options.model ?? 'stub-judge')),
    usage: () => ({ byStage: {}, byEndpoint: {}, total: usage }),
  };
  return client;
}

/** Item ids in a batch prompt (`### Item <id>`). */
export function itemIds(user: string): number[] {
  return [...user.matchAll(/### Item (\d+)/g)].map((match) => Number(match[1]));
}

/** Answers every item: CORRECT for accuracy prompts, score 1 otherwise. */
function defaultRespond({ system, user }: { system: string; user: string }): unknown {
  const ids = itemIds(user);
  if (system.includes('"label"')) return { results: ids.map((id) => ({ id, label: 'CORRECT' })) };
  return { results: ids.map((id) => ({ id, score: 1 })) };
}
