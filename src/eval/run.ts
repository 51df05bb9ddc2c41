import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BudgetExceededError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import { writeFileAtomic } from '../util/fs.js';
import { extractAnswer, scoreItem } from './score.js';
import { assembleFull, assembleRag, HistoryCache, runAgent } from './strategies.js';
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
  /** The item's score; null when its model call failed (then `error` says why). */
  score: number | null;
  latencyMs: number;
  /** LLM-judge verdict for open answers (1 correct, 0 wrong) when a judge is configured. */
  judgeScore?: number;
  /** Why the item could not be answered (after the client's retries); such an item is never scored. */
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
  onProgress?: (progress: { done: number; total: number; resumed: number; failed: number }) => void;
  /** Named in every failed item's error: where the model was asked (`<url> (model <name>)`). */
  target?: string;
  /**
   * Judges open answers (LoCoMo) besides the paper's F1: the reward server's accuracy judge
   * (versioned prompt, verdicts cached). Absent: no judged score.
   */
  judgeOpen?: (item: EvalItem, answer: string) => Promise<number | null>;
}

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
        // A failed item is asked again: only answers are kept.
        if (record.strategy === options.strategy && record.error === undefined) done.set(record.id, record);
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
  let failed = 0;
  const total = selected.length;
  options.onProgress?.({ done: finished, total, resumed, failed });
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
      if (record.error !== undefined) failed++;
      options.onProgress?.({ done: finished, total, resumed, failed });
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
  // With failed questions the journal stays: the same command asks only those again.
  if (records.every((record) => record.error === undefined)) await rm(journalPath, { force: true });
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
    // this item's: recorded with the reason and where the model was asked, and never scored.
    if (error instanceof BudgetExceededError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      promptTokens: 0,
      output: '',
      retrievals: [],
      parsed: '',
      score: null,
      latencyMs: Math.round(performance.now() - started),
      error: options.target === undefined ? message : `${options.target}: ${message}`,
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
