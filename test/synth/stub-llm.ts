import { inOwnVoice } from '../../src/dev/fake-llm/responders/realizer.js';
import { estimateMessagesTokens, estimateTokens } from '../../src/llm/token-estimate.js';
import type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  LlmClient,
  StructuredRequest,
  Usage,
} from '../../src/llm/types.js';

/**
 * An in-process `LlmClient` for synth tests (until the shared fake server is available): every
 * call goes to `respond(role, messages)`, which returns the model's text; structured answers are
 * parsed with the request's schema. Usage counts estimated prompt tokens per call.
 */
export interface StubLlm extends LlmClient {
  calls: Array<{ role: string; messages: ChatMessage[]; promptTokens: number }>;
}

export function createStubLlm(
  respond: (role: string, messages: ChatMessage[]) => string,
  options: { offlineRoles?: string[]; model?: string } = {},
): StubLlm {
  const calls: StubLlm['calls'] = [];
  const total: Usage = {
    calls: 0,
    cacheHits: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    failures: 0,
  };
  const offline = new Set(options.offlineRoles ?? []);
  const chat = async (role: string, request: ChatRequest): Promise<ChatResult> => {
    const promptTokens = estimateMessagesTokens(request.messages);
    calls.push({ role, messages: request.messages, promptTokens });
    const text = respond(role, request.messages);
    total.calls++;
    total.promptTokens += promptTokens;
    total.completionTokens += estimateTokens(text);
    return {
      text,
      usage: { promptTokens, completionTokens: estimateTokens(text) },
      cached: false,
      offline: false,
      model: options.model ?? 'stub-model',
    };
  };
  return {
    calls,
    chat,
    async structured<T>(role: string, request: StructuredRequest<T>): Promise<T> {
      if (offline.has(role)) {
        if (request.offline === undefined)
          throw new Error(`role ${role} is offline and the request has no offline answer`);
        return request.offline();
      }
      const result = await chat(role, request);
      return request.schema.parse(JSON.parse(result.text));
    },
    async safeStructured<T>(role: string, request: StructuredRequest<T>) {
      try {
        return { ok: true as const, value: await this.structured(role, request), offline: offline.has(role) };
      } catch (error) {
        return { ok: false as const, error: error as Error };
      }
    },
    async embed(_role, texts) {
      return texts.map(() => [0]);
    },
    isOffline: (role) => offline.has(role),
    modelFor: (role) => (offline.has(role) ? 'offline' : (options.model ?? 'stub-model')),
    usage: () => ({ byStage: {}, byEndpoint: {}, total }),
  };
}

/** Rounds to write, parsed back from the chunk prompt (what a fake model "reads"). */
export function parseChunkPrompt(
  messages: ChatMessage[],
): Array<{ round: number; keywords: string[]; statements: string[]; images: number }> {
  const prompt = messages[messages.length - 1]!.content;
  const section = prompt.slice(prompt.indexOf('WRITE THESE ROUNDS:'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('- round '))
    .map((line) => ({
      round: Number(/^- round (\d+)/.exec(line)![1]),
      keywords: [...line.matchAll(/keywords: ((?:"[^"]*"(?:, )?)+)/g)].flatMap((m) =>
        [...m[1]!.matchAll(/"([^"]*)"/g)].map((k) => k[1]!),
      ),
      statements: [...line.matchAll(/express: "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\"/g, '"')),
      images: (line.match(/image: /g) ?? []).length,
    }));
}

/** A realizer "model" that writes each round, including the requested keywords when `withKeywords`. */
export function chunkResponder(
  mode: 'keywords' | 'omit' | 'partial',
  filler = 'we chatted about the week',
): (role: string, messages: ChatMessage[]) => string {
  return (role, messages) => {
    if (role === 'judge' && messages[0]!.content.includes('meaning-entailment')) {
      // The entailment judge: a faithful model's turn says what was asked.
      const ids = [...messages[1]!.content.matchAll(/^QUESTION (\S+) /gm)].map((m) => m[1]!);
      return JSON.stringify({ answers: ids.map((id) => ({ id, says: 'yes', quote: 'stub judge agrees' })) });
    }
    if (role === 'judge' && /photo-description\/|correction-check\//.test(messages[0]!.content)) {
      // The photo and correction checks (src/synth/round-labels/): a faithful model's turn passes.
      const ids = [...messages[1]!.content.matchAll(/^(?:PHOTO|CORRECTION) (\S+) /gm)].map((m) => m[1]!);
      const pass = { shown: true, subject: true, details: [], corrects: true, retracts: [] };
      return JSON.stringify({ answers: ids.map((id) => ({ id, ...pass })) });
    }
    if (role === 'judge') return JSON.stringify({ expressed: true, reason: 'stub judge agrees' });
    const rounds = parseChunkPrompt(messages);
    return JSON.stringify({
      turns: rounds.map((round) => {
        const keywords =
          mode === 'keywords' ? round.keywords : mode === 'partial' ? round.keywords.slice(0, 1) : [];
        const images = Array.from({ length: round.images }, () => '<image>').join(' ');
        // A faithful model states each fact (its meaning is checked, not only its keywords).
        const facts =
          mode === 'keywords' ? round.statements.map((statement) => `${inOwnVoice(statement, '')}.`) : [];
        return {
          round: round.round,
          user: `${images} Round ${round.round}: ${filler}. ${facts.join(' ')} ${keywords.join(' and ')}`
            .replace(/\s+/g, ' ')
            .trim(),
          assistant: `Thanks for round ${round.round}, that is helpful.`,
        };
      }),
    });
  };
}
