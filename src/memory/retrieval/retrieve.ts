import type { LlmClient } from '../../llm/types.js';
import type { RetrievalConfig } from '../../schemas/memory-config.js';
import type { Rng } from '../../util/rng.js';
import type { PersonaMemory } from '../persona/persona-memory.js';
import {
  type Embedder,
  MEMORY_ENTRY_TYPES,
  type MemoryEntryType,
  type RetrievedEntry,
  type RetrieveOptions,
  type RetrieveResult,
  type TopK,
} from '../types.js';
import { createTimeWindow } from './time-window.js';

/**
 * The llm layer's embedding as an `Embedder` (offline embedding when the role has no endpoint).
 *
 * @example
 * const memory = createPersonaMemory({ embedder: embedderFromLlm(llm) });
 */
export function embedderFromLlm(llm: LlmClient, role = 'embedder', stage = 'memory'): Embedder {
  return (texts) => (texts.length === 0 ? Promise.resolve([]) : llm.embed(role, texts, { stage }));
}

/**
 * Per-call top-k for training data: each type drawn uniformly from its configured range
 * (SPEC.md §1: semantic U[3,6], episodic U[2,5]).
 *
 * @example
 * drawTopK(createRng(42, 'u1', 'qa1'), config.retrieval); // { semantic: 5, episodic: 2, procedural: 2 }
 */
export function drawTopK(rng: Rng, config: RetrievalConfig): TopK {
  const draw = (range: readonly [number, number]) => rng.int(Math.min(...range), Math.max(...range));
  return {
    semantic: draw(config.trainingTopK.semantic),
    episodic: draw(config.trainingTopK.episodic),
    procedural: draw(config.trainingTopK.procedural),
  };
}

function toRetrieved(memory: PersonaMemory, id: string, score: number): RetrievedEntry | null {
  const found = memory.lookup(id);
  if (found === undefined) return null;
  switch (found.type) {
    case 'semantic':
      return {
        id,
        type: 'semantic',
        text: found.entry.content,
        time: found.entry.timestamp,
        keywords: found.entry.keywords,
        score,
        slotIds: found.entry.slotIds,
      };
    case 'episodic':
      return {
        id,
        type: 'episodic',
        text: found.entry.summary,
        time: found.entry.start,
        keywords: found.entry.keywords,
        score,
        slotIds: found.entry.slotIds,
      };
    case 'procedural':
      return {
        id,
        type: 'procedural',
        text: `${found.entry.key}: ${found.entry.sentence}`,
        time: found.entry.updatedAt,
        keywords: [],
        score,
        slotIds: found.entry.slotIds,
      };
  }
}

/**
 * PersonaVLM retrieval (SPEC.md §1): filter by the time window (an entry passes when its span
 * overlaps [start, end], see time-window.ts for the inclusive boundaries) and by `asOf`/`exclude`,
 * then search semantic, episodic and procedural memory in parallel — BM25 and dense fused by RRF
 * (or one path, `mode`) — and keep each type's top k.
 *
 * @example
 * const result = await retrieve(memory, { keywords: 'hotpot', startTime: null, endTime: null, topK: { semantic: 4 } });
 * formatMemoryBlock(result);
 */
export async function retrieve(memory: PersonaMemory, options: RetrieveOptions): Promise<RetrieveResult> {
  const config = memory.config.retrieval;
  const query = Array.isArray(options.keywords) ? options.keywords.join(' ') : (options.keywords as string);
  const window = createTimeWindow(options.startTime, options.endTime);
  const asOf = options.asOf == null ? Number.POSITIVE_INFINITY : Date.parse(options.asOf);
  const exclude = new Set(options.exclude ?? []);
  const filter = (id: string): boolean => {
    if (exclude.has(id)) return false;
    const times = memory.lookup(id)?.times;
    return (
      times !== undefined && times.createdAt <= asOf && times.to >= window.from && times.from <= window.to
    );
  };
  const byType: Record<MemoryEntryType, RetrievedEntry[]> = { semantic: [], episodic: [], procedural: [] };
  await Promise.all(
    MEMORY_ENTRY_TYPES.map(async (type) => {
      const k = options.topK?.[type] ?? config.topK[type];
      const hits = await memory.indexes[type].search(query, {
        k,
        filter,
        mode: options.mode ?? config.mode,
        candidates: config.candidatesPerPath,
        rrfK: config.rrfK,
      });
      byType[type] = hits.flatMap((hit) => toRetrieved(memory, hit.id, hit.score) ?? []);
    }),
  );
  return { entries: [...byType.semantic, ...byType.episodic, ...byType.procedural], byType };
}
