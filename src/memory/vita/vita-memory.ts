import type { z } from 'zod';
import { estimateTokens } from '../../llm/token-estimate.js';
import type { LlmClient } from '../../llm/types.js';
import { VitaMemoryConfig } from '../../schemas/memory-config.js';
import { DenseIndex } from '../retrieval/dense.js';
import { formatMinute } from '../retrieval/format-block.js';
import type { Embedder } from '../types.js';

/** One interaction between tasks: a dialogue turn or a behavior-log event rendered as text. */
export interface VitaInteraction {
  time: string;
  kind: 'dialogue' | 'behavior';
  text: string;
}

/**
 * VitaBench 2.0's memory interface (SPEC.md §4): `update(newInteractions)` then
 * `retrieve(query)` → the text handed to the agent.
 */
export interface VitaMemory {
  readonly backend: 'rewrite' | 'rag';
  /** True when no model took part (offline rewrite). */
  readonly offline: boolean;
  update(interactions: readonly VitaInteraction[]): Promise<void>;
  retrieve(query: string): Promise<string>;
}

const REWRITE_INSTRUCTIONS =
  'You keep one consolidated memory of a user for a lifestyle assistant. Rewrite the memory with the new interactions: retain what still holds, update what changed (drop what the user contradicted), add new lasting preferences, and structure it by food, spending, time, location, service and other preferences. Ignore noise (one-off impulses, orders for others, browsing). Output only the memory.';

const line = (item: VitaInteraction) =>
  `[${formatMinute(item.time)}] ${item.kind}: ${item.text.replace(/\s+/g, ' ').trim()}`;

/** Keeps the newest lines that fit the token budget (the deterministic side of the budget). */
function fitBudget(text: string, budget: number): string {
  const lines = text.split('\n');
  while (lines.length > 1 && estimateTokens(lines.join('\n')) > budget) lines.shift();
  const kept = lines.join('\n');
  if (estimateTokens(kept) <= budget) return kept;
  // One overlong line: keep its tail within the budget (≈ 4 characters per token).
  return kept.slice(kept.length - budget * 4);
}

/**
 * The rewrite-summary backend: one consolidated memory rewritten on every update within a stated
 * budget (VitaBench: 4,096 tokens). With a model the `role` rewrites it; offline the new
 * interactions are appended as dated lines and the oldest lines dropped to fit. `retrieve`
 * returns the whole summary, as VitaBench's `read_preference_memory` does.
 *
 * @example
 * const memory = createRewriteMemory({ llm, role: 'judge' });
 * await memory.update(interactions); await memory.retrieve('dinner tonight');
 */
export function createRewriteMemory(
  options: {
    config?: z.input<typeof VitaMemoryConfig>;
    llm?: LlmClient | null;
    role?: string;
    stage?: string;
  } = {},
): VitaMemory & { summary(): string } {
  const config = VitaMemoryConfig.parse(options.config ?? {});
  const role = options.role ?? 'judge';
  const llm = options.llm != null && !options.llm.isOffline(role) ? options.llm : null;
  let summary = '';
  return {
    backend: 'rewrite',
    offline: llm === null,
    summary: () => summary,
    async update(interactions) {
      if (interactions.length === 0) return;
      const fresh = interactions.map(line).join('\n');
      if (llm === null) {
        summary = fitBudget(summary === '' ? fresh : `${summary}\n${fresh}`, config.rewriteMaxTokens);
        return;
      }
      const result = await llm.chat(role, {
        messages: [
          {
            role: 'system',
            content: `${REWRITE_INSTRUCTIONS} Stay within ${config.rewriteMaxTokens} tokens.`,
          },
          {
            role: 'user',
            content: `Current memory:\n${summary === '' ? '(empty)' : summary}\n\nNew interactions:\n${fresh}`,
          },
        ],
        maxTokens: config.rewriteMaxTokens,
        temperature: 0,
        ...(options.stage === undefined ? {} : { stage: options.stage }),
      });
      summary = fitBudget(result.text.trim(), config.rewriteMaxTokens);
    },
    async retrieve() {
      return summary;
    },
  };
}

/**
 * Splits lines into chunks of at most `size` tokens (whole lines when they fit, words otherwise), `overlap` words carried over.
 *
 * @example
 * chunkByTokens(lines, 512); // ['[2024-01-01 08:00] behavior: …', …]
 */
export function chunkByTokens(lines: readonly string[], size: number, overlap = 0): string[] {
  const words = lines.flatMap((text, index) =>
    (index === 0 ? [] : ['\n']).concat(text.split(/\s+/).filter((w) => w !== '')),
  );
  const chunks: string[] = [];
  let current: string[] = [];
  const render = (parts: string[]) =>
    parts
      .join(' ')
      .replace(/ ?\n ?/g, '\n')
      .trim();
  for (const word of words) {
    if (current.length > 0 && estimateTokens(render([...current, word])) > size) {
      chunks.push(render(current));
      current = overlap > 0 ? current.filter((w) => w !== '\n').slice(-overlap) : [];
    }
    current.push(word);
  }
  if (current.some((w) => w !== '\n')) chunks.push(render(current));
  return chunks.filter((chunk) => chunk !== '');
}

/**
 * The RAG backend: interactions are cut into chunks of `ragChunkTokens` (512) tokens, embedded,
 * and `retrieve` returns the top `ragTopK` (8) chunks whose cosine similarity to the query is at
 * least `ragThreshold` (0.3), best first, separated by blank lines.
 *
 * @example
 * const memory = createRagMemory({ embedder: embedderFromLlm(llm) });
 */
export function createRagMemory(options: {
  config?: z.input<typeof VitaMemoryConfig>;
  embedder: Embedder;
}): VitaMemory & { chunks(): string[] } {
  const config = VitaMemoryConfig.parse(options.config ?? {});
  const index = new DenseIndex();
  const chunks: string[] = [];
  return {
    backend: 'rag',
    offline: true,
    chunks: () => [...chunks],
    async update(interactions) {
      const fresh = chunkByTokens(interactions.map(line), config.ragChunkTokens, config.ragChunkOverlap);
      if (fresh.length === 0) return;
      const vectors = await options.embedder(fresh);
      fresh.forEach((chunk, i) => {
        index.add(`c${chunks.length}`, vectors[i] as number[]);
        chunks.push(chunk);
      });
    },
    async retrieve(query) {
      if (chunks.length === 0) return '';
      const [vector] = await options.embedder([query]);
      return index
        .search(vector as number[], config.ragTopK)
        .filter((hit) => hit.score >= config.ragThreshold)
        .map((hit) => chunks[Number(hit.id.slice(1))] as string)
        .join('\n\n');
    },
  };
}

/**
 * VitaBench's `update(memory, newHistory)`.
 *
 * @example
 * await updateVitaMemory(memory, interactions);
 */
export function updateVitaMemory(
  memory: VitaMemory,
  interactions: readonly VitaInteraction[],
): Promise<void> {
  return memory.update(interactions);
}

/**
 * VitaBench's `retrieve(memory, query)`.
 *
 * @example
 * const context = await retrieveVitaMemory(memory, 'book a restaurant for Friday');
 */
export function retrieveVitaMemory(memory: VitaMemory, query: string): Promise<string> {
  return memory.retrieve(query);
}
