import { PROMPTS } from '../export/prompts.js';
import type { LlmClient } from '../llm/types.js';
import { createPersonaMemory, type PersonaMemory } from '../memory/persona/persona-memory.js';
import { formatMemoryBlock, formatMinute } from '../memory/retrieval/format-block.js';
import { embedderFromLlm, retrieve } from '../memory/retrieval/retrieve.js';
import type { MemorySnapshot } from '../schemas/memory.js';
import { countTokens } from '../util/tokens.js';
import { labelOf } from './load.js';
import type { EvalRecord, RunEvalOptions } from './run.js';
import type { EvalItem, EvalTurn } from './types.js';

/**
 * The three ways `persona-forge eval` builds what the model sees: `full` (the newest history in
 * the token budget), `rag` (the question's top memories) and `agent` (the PersonaVLM retrieve
 * loop), over one memory per conversation built from its history.
 */

/** Tokens a chat template adds per message (role markers and separators; Qwen/ChatML ≈ 4, Llama 3 ≈ 5). */
export const TEMPLATE_TOKENS_PER_MESSAGE = 5;
/** Tokens a chat template adds once (the assistant header of the answer). */
export const TEMPLATE_TOKENS_PER_PROMPT = 3;

const INSTRUCTIONS = {
  mc: 'Answer with the letter of the one option that fits this user best, inside <answer></answer>, e.g. <answer>(b)</answer>.',
  open: 'Answer with a short phrase inside <answer></answer>. If the conversation does not contain the answer, answer "No information available".',
  adversarial:
    'Answer with a short phrase inside <answer></answer>. If the conversation does not contain the answer, answer "No information available".',
} as const;

function questionText(item: EvalItem): string {
  const time = item.time === null ? '' : `[${formatMinute(item.time)}] `;
  const options =
    item.choices.length === 0
      ? ''
      : `\nOptions:\n${item.choices.map((choice, i) => `${labelOf(i)} ${choice}`).join('\n')}`;
  return `${time}${item.question}${options}`;
}

const turnLine = (turn: EvalTurn) =>
  `${turn.time === null ? '' : `[${formatMinute(turn.time)}] `}${turn.speaker}: ${turn.text}`;

interface Prompt {
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  tokens: number;
  retrievals: EvalRecord['retrievals'];
}

/**
 * `full`: the newest history that fits the budget (counted with the o200k BPE tokenizer; each
 * line's count is computed once per conversation), then the question. The budget holds the
 * system prompt, the question, the template's per-message tokens and the answer's tokens.
 */
export function assembleFull(
  item: EvalItem,
  history: readonly EvalTurn[],
  contextTokens: number,
  answerTokens: number,
): Prompt {
  const system = `You are a personal assistant. Below is your conversation history with the user. ${INSTRUCTIONS[item.kind]}`;
  const question = questionText(item);
  const fixed =
    countTokens(system) +
    countTokens(question) +
    2 * TEMPLATE_TOKENS_PER_MESSAGE +
    TEMPLATE_TOKENS_PER_PROMPT +
    answerTokens +
    countTokens('Conversation history:\n');
  let budget = contextTokens - fixed;
  const kept: string[] = [];
  for (let i = history.length - 1; i >= 0 && budget > 0; i--) {
    const line = lineTokens(history[i] as EvalTurn);
    if (line.tokens + 1 > budget) break;
    budget -= line.tokens + 1;
    kept.push(line.text);
  }
  kept.reverse();
  const content = `Conversation history:\n${kept.join('\n')}\n\n${question}`;
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content },
    ],
    tokens: contextTokens - budget - answerTokens,
    retrievals: [],
  };
}

const lineCache = new WeakMap<EvalTurn, { text: string; tokens: number }>();
function lineTokens(turn: EvalTurn): { text: string; tokens: number } {
  let cached = lineCache.get(turn);
  if (cached === undefined) {
    const text = turnLine(turn);
    cached = { text, tokens: countTokens(text) };
    lineCache.set(turn, cached);
  }
  return cached;
}

/** Memories of a conversation at a question's time, built once (the same engine `/v1/memory/retrieve` serves). */
export class HistoryCache {
  private readonly built = new Map<string, Promise<PersonaMemory>>();
  constructor(private readonly llm: LlmClient) {}

  memory(key: string, history: readonly EvalTurn[]): Promise<PersonaMemory> {
    let memory = this.built.get(key);
    if (memory === undefined) {
      memory = Promise.resolve(
        createPersonaMemory({
          snapshot: snapshotOf(history),
          embedder: embedderFromLlm(this.llm, 'embedder', 'eval'),
        }),
      );
      this.built.set(key, memory);
      if (this.built.size > 256) this.built.delete(this.built.keys().next().value as string);
    }
    return memory;
  }
}

/**
 * A conversation history as a memory snapshot: each turn a semantic entry (text, speaker, time),
 * so the hybrid retriever (BM25 + dense + RRF, time window) and the memory block are those of
 * the retrieval environment. Turns without a time get one minute apart from 2000-01-01.
 */
export function snapshotOf(history: readonly EvalTurn[]): MemorySnapshot {
  const epoch = Date.UTC(2000, 0, 1);
  const semantic = history.map((turn, i) => ({
    id: `h${i}:${turn.id}`,
    reason: 'conversation turn',
    content: `${turn.speaker}: ${turn.text}`,
    keywords: [],
    timestamp: turn.time ?? new Date(epoch + i * 60_000).toISOString(),
    turnId: turn.id,
    sessionIndex: Number(/^[SD](\d+):/.exec(turn.id)?.[1] ?? 0),
    imageIds: [],
    slotIds: [],
  }));
  const last = semantic[semantic.length - 1]?.timestamp ?? new Date(epoch).toISOString();
  return {
    time: last,
    sessionIndex: -1,
    core: {
      human: { name: 'User' },
      persona: { identity: 'assistant', roles: 'assistant', interactionStyle: '' },
    },
    semantic,
    episodic: [],
    procedural: [],
    personality: {
      p: { openness: 3, conscientiousness: 3, extraversion: 3, agreeableness: 3, neuroticism: 3 },
      turns: 0,
    },
  } as MemorySnapshot;
}

/** `rag`: the question's top memories by the hybrid retriever, cut to the same budget, in time order. */
export async function assembleRag(
  item: EvalItem,
  history: readonly EvalTurn[],
  options: RunEvalOptions,
  cache: HistoryCache,
): Promise<Prompt> {
  const memory = await cache.memory(`${item.conversationId}|${history.length}`, history);
  const result = await retrieve(memory, {
    keywords: item.question,
    topK: { semantic: options.ragK ?? 24, episodic: 0, procedural: 0 },
  });
  const byId = new Map(history.map((turn, i) => [`h${i}:${turn.id}`, turn]));
  const turns = result.entries
    .map((entry) => ({ turn: byId.get(entry.id), index: Number(/^h(\d+):/.exec(entry.id)?.[1] ?? 0) }))
    .filter((entry): entry is { turn: EvalTurn; index: number } => entry.turn !== undefined)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.turn);
  const prompt = assembleFull(item, turns, options.contextTokens, options.maxAnswerTokens ?? 512);
  return {
    ...prompt,
    retrievals: [
      { keywords: item.question, start_time: null, end_time: null, ids: result.entries.map((e) => e.id) },
    ],
  };
}

const RETRIEVE = /<retrieve>([\s\S]*?)<\/retrieve>/;

/**
 * `agent`: the PersonaVLM inference loop the RL data trains — the reasoning system prompt, the
 * model writes `<think>` then `<retrieve>{json}` (answered with the memory block of the retrieval
 * environment as a user turn) or `<answer>`; at most 3 retrievals, never an entry twice.
 */
export async function runAgent(
  item: EvalItem,
  history: readonly EvalTurn[],
  options: RunEvalOptions,
  cache: HistoryCache,
  role: string,
): Promise<Pick<EvalRecord, 'promptTokens' | 'output' | 'retrievals'>> {
  const memory = await cache.memory(`${item.conversationId}|${history.length}`, history);
  const messages: Prompt['messages'] = [
    { role: 'system', content: `${PROMPTS.reasoning}\n\n${INSTRUCTIONS[item.kind]}` },
    { role: 'user', content: questionText(item) },
  ];
  const retrievals: EvalRecord['retrievals'] = [];
  const seen = new Set<string>();
  let output = '';
  let promptTokens = 0;
  for (let turn = 0; turn <= 3; turn++) {
    promptTokens = messages.reduce((sum, m) => sum + countTokens(m.content) + TEMPLATE_TOKENS_PER_MESSAGE, 0);
    const answer = await options.llm.chat(role, {
      messages,
      temperature: 0,
      maxTokens: options.maxAnswerTokens ?? 512,
      stage: 'eval',
    });
    // A turn ends at its first </retrieve> (what a stop word would do; not every server honours one).
    const cut = answer.text.indexOf('</retrieve>');
    output = cut >= 0 ? answer.text.slice(0, cut + '</retrieve>'.length) : answer.text;
    messages.push({ role: 'assistant', content: output });
    const call = RETRIEVE.exec(output);
    if (call === null || output.includes('<answer>') || turn === 3) break;
    let query: { keywords?: unknown; start_time?: unknown; end_time?: unknown };
    try {
      query = JSON.parse(call[1] ?? '') as typeof query;
    } catch {
      messages.push({ role: 'user', content: '<memory>\ninvalid retrieve JSON\n</memory>' });
      continue;
    }
    const keywords = typeof query.keywords === 'string' ? query.keywords : item.question;
    const start = typeof query.start_time === 'string' ? query.start_time : null;
    const end = typeof query.end_time === 'string' ? query.end_time : null;
    const result = await retrieve(memory, { keywords, startTime: start, endTime: end, exclude: seen });
    for (const entry of result.entries) seen.add(entry.id);
    retrievals.push({ keywords, start_time: start, end_time: end, ids: result.entries.map((e) => e.id) });
    messages.push({ role: 'user', content: formatMemoryBlock(result) });
  }
  return { promptTokens, output, retrievals };
}
