import type { ChatResult, LlmClient, SafeResult, StructuredRequest, Usage } from '../../src/llm/types.js';

const ZERO: Usage = { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, failures: 0 };

/**
 * A stand-in `LlmClient` for persona tests. Offline mode answers like the real offline backend
 * (`request.offline()`); online mode returns `answer` validated through the request's schema,
 * recording every request so tests can inspect the prompt.
 */
export function createFakeLlm(
  options: { answer?: unknown } = {},
): LlmClient & { requests: StructuredRequest<unknown>[] } {
  const requests: StructuredRequest<unknown>[] = [];
  const online = options.answer !== undefined;
  const structured = async <T>(_role: string, request: StructuredRequest<T>): Promise<T> => {
    requests.push(request as StructuredRequest<unknown>);
    if (!online) {
      if (request.offline === undefined) throw new Error('no offline producer');
      return request.offline();
    }
    return request.schema.parse(options.answer);
  };
  return {
    requests,
    chat: async (): Promise<ChatResult> => {
      throw new Error('chat is not used by persona enrichment');
    },
    structured,
    safeStructured: async <T>(role: string, request: StructuredRequest<T>): Promise<SafeResult<T>> => {
      try {
        return { ok: true, value: await structured(role, request), offline: !online };
      } catch (error) {
        return { ok: false, error: error as Error };
      }
    },
    embed: async () => [],
    isOffline: () => !online,
    modelFor: () => (online ? 'fake-model' : 'offline'),
    usage: () => ({ byStage: {}, byEndpoint: {}, total: ZERO }),
  };
}
