import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { BudgetExceededError } from '../errors/index.js';
import { PROMPTS } from '../export/prompts.js';
import type { LlmClient } from '../llm/types.js';
import { createPersonaMemory, type PersonaMemory } from '../memory/persona/persona-memory.js';
import { formatMemoryBlock, formatMinute } from '../memory/retrieval/format-block.js';
import { embedderFromLlm, retrieve } from '../memory/retrieval/retrieve.js';
import type { MemorySnapshot } from '../schemas/memory.js';
import { writeFileAtomic } from '../util/fs.js';
import { labelOf } from './load.js';
import { extractAnswer, scoreItem } from './score.js';
import type { EvalItem, EvalSet, EvalTurn } from './types.js';

export type EvalStrategy = 'full' | 'rag' | 'agent';

/** One evaluated question, as `items.jsonl` holds it. */
export interface EvalRecord {
  id: string;
  format: string;
  task: string;
  /** Persona-MME aspect; null elsewhere. */
  aspect: string | null;
  category: number | null;
  contextLength: string | null;
  strategy: EvalStrategy;
  question: string;
  answer: string;
  promptTokens: number;
  output: string;
  retrievals: Array<{ keywords: string; start_time: string | null; end_time: string | null; ids: string[] }>;
  parsed: string;
  score: number;
  latencyMs: number;
  /** LLM-judge verdict for open answers (1 correct, 0 wrong) when a judge is configured. */
  judgeScore?: number;
  error?: string;
}

export interface RunEvalOptions {
  out: string;
  llm: LlmClient;
  strategy: EvalStrategy;
  /** Prompt budget in tokens (the history is cut to it, newest kept). */
  contextTokens: number;
  /** The llm layer role that answers. @default 'eval' */
  role?: string;
  limit?: number;
  /** Questions in flight. @default 64 */
  concurrency?: number;
  /** Tokens the answer may use (kept free in the budget). @default 512 */
  maxAnswerTokens?: number;
  /** RAG: memories retrieved per question before the budget cut. @default 24 */
  ragK?: number;
  onProgress?: (progress: { done: number; total: number; resumed: number }) => void;
  /**
   * Judges open answers (LoCoMo) besides the paper's F1: the reward server's accuracy judge
   * (versioned prompt, verdicts cached). Absent: no judged score.
   */
  judgeOpen?: (item: EvalItem, answer: string) => Promise<number | null>;
}

/** Tokens a chat template adds per message (role markers and separators; Qwen/ChatML ≈ 4, Llama 3 ≈ 5). */
export const TEMPLATE_TOKENS_PER_MESSAGE = 5;
/** Tokens a chat template adds once (the assistant header of the answer). */
export const TEMPLATE_TOKENS_PER_PROMPT = 3;

const JOURNAL = 'items.partial.jsonl';

/**
 * Evaluates every item of the sets with one strategy and writes `<out>/items.jsonl` (in item
 * order). Finished items are journaled as they complete, so a killed run resumes where it stopped
 * and ends with the same items. Model calls go through the llm layer (concurrency, retries,
 * cache, budget).
 *
 * @example const records = await runEval([set], { out: 'out/eval', llm, strategy: 'full', contextTokens: 32_000 });
 */
export async function runEval(sets: EvalSet[], options: RunEvalOptions): Promise<EvalRecord[]> {
  await mkdir(options.out, { recursive: true });
  const items = sets.flatMap((set) => set.items.map((item) => ({ item, set })));
  const selected = options.limit === undefined ? items : items.slice(0, options.limit);
  const journalPath = join(options.out, JOURNAL);
  const done = new Map<string, EvalRecord>();
  if (existsSync(journalPath)) {
    for (const line of (await readFile(journalPath, 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      try {
        const record = JSON.parse(line) as EvalRecord;
        if (record.strategy === options.strategy) done.set(record.id, record);
      } catch {
        // a line cut by a kill: that item runs again
      }
    }
  }
  const resumed = done.size;
  const histories = new HistoryCache(options.llm);
  const concurrency = options.concurrency ?? 64;
  let next = 0;
  let finished = done.size;
  const total = selected.length;
  options.onProgress?.({ done: finished, total, resumed });
  // One append handle for the journal: a line per finished question, written as it finishes.
  const journal = await open(journalPath, 'a');
  const worker = async () => {
    for (;;) {
      const index = next++;
      const entry = selected[index];
      if (entry === undefined) return;
      if (done.has(entry.item.id)) continue;
      const record = await evaluateItem(entry.item, entry.set, options, histories);
      done.set(record.id, record);
      await journal.write(`${JSON.stringify(record)}\n`);
      finished++;
      options.onProgress?.({ done: finished, total, resumed });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, total)) }, worker));
  } finally {
    await journal.close();
  }
  const records = selected.map(({ item }) => done.get(item.id) as EvalRecord);
  await writeFileAtomic(
    join(options.out, 'items.jsonl'),
    records.map((r) => `${JSON.stringify(r)}\n`).join(''),
  );
  await rm(journalPath, { force: true });
  return records;
}

async function evaluateItem(
  item: EvalItem,
  set: EvalSet,
  options: RunEvalOptions,
  histories: HistoryCache,
): Promise<EvalRecord> {
  const started = performance.now();
  const role = options.role ?? 'eval';
  const history = visibleHistory(set.histories.get(item.conversationId) ?? [], item);
  const base: Omit<EvalRecord, 'promptTokens' | 'output' | 'parsed' | 'score' | 'latencyMs' | 'retrievals'> =
    {
      id: item.id,
      format: item.format,
      task: item.task,
      aspect: item.aspect,
      category: item.category,
      contextLength: item.contextLength,
      strategy: options.strategy,
      question: item.question,
      answer: item.answer,
    };
  try {
    if (options.strategy === 'agent') {
      const result = await runAgent(item, history, options, histories, role);
      const { score, parsed } = scoreItem(item, extractAnswer(result.output));
      const judged =
        item.kind === 'open' && options.judgeOpen !== undefined
          ? await options.judgeOpen(item, parsed)
          : null;
      return {
        ...base,
        ...result,
        parsed,
        score,
        ...(judged === null ? {} : { judgeScore: judged }),
        latencyMs: Math.round(performance.now() - started),
      };
    }
    const prompt =
      options.strategy === 'full'
        ? assembleFull(item, history, options.contextTokens, options.maxAnswerTokens ?? 512)
        : await assembleRag(item, history, options, histories);
    const answer = await options.llm.chat(role, {
      messages: prompt.messages,
      temperature: 0,
      maxTokens: options.maxAnswerTokens ?? 512,
      stage: 'eval',
    });
    const { score, parsed } = scoreItem(item, extractAnswer(answer.text));
    const judged =
      item.kind === 'open' && options.judgeOpen !== undefined ? await options.judgeOpen(item, parsed) : null;
    return {
      ...base,
      ...(judged === null ? {} : { judgeScore: judged }),
      promptTokens: prompt.tokens,
      output: answer.text,
      retrievals: prompt.retrievals,
      parsed,
      score,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    // Out of budget stops the evaluation (finished items stay in the journal); other failures are
    // this item's, recorded with the reason and a score of 0.
    if (error instanceof BudgetExceededError) throw error;
    return {
      ...base,
      promptTokens: 0,
      output: '',
      retrievals: [],
      parsed: '',
      score: 0,
      latencyMs: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Turns the question may see: before its time, and within PersonaMem's end index. */
export function visibleHistory(turns: readonly EvalTurn[], item: EvalItem): EvalTurn[] {
  const end = item.historyEnd === null ? turns.length : Math.min(turns.length, item.historyEnd + 1);
  const limit = item.time === null ? Number.POSITIVE_INFINITY : Date.parse(item.time);
  const out: EvalTurn[] = [];
  for (let i = 0; i < end; i++) {
    const turn = turns[i] as EvalTurn;
    if (turn.time !== null && Date.parse(turn.time) > limit) break;
    out.push(turn);
  }
  return out;
}

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
class HistoryCache {
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
async function assembleRag(
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
async function runAgent(
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
