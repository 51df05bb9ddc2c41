import { InputError, PersonaForgeError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import {
  createPersonaMemory,
  embedderFromLlm,
  formatMemoryBlock,
  loadMemorySnapshot,
  type PersonaMemory,
  retrieve,
} from '../memory/index.js';
import { MemorySnapshot } from '../schemas/memory.js';
import { hasSnapshot, type MemoryRetrieveRequest } from '../schemas/reward.js';
import { hashValue } from '../util/hash.js';

/**
 * Serves `/v1/memory/retrieve`: the memory block a rollout appends after a `<retrieve>` turn,
 * from the memory engine's session-end states (a `memory_snapshot` column sent with the RL row,
 * or `<runDir>/memory/memory.jsonl` looked up by `user_id` at `time`).
 */
export interface MemoryRetrieveResponse {
  /** The formatted block (`<memory>…</memory>`) the scheduler appends as the next turn. */
  block: string;
  /** The retrieved entries, for logging and for the caller's `exclude` list. */
  results: Array<{ id: string; type: string; text: string; time: string; score: number }>;
}

export type MemoryRetriever = (request: MemoryRetrieveRequest) => Promise<MemoryRetrieveResponse>;

export interface MemoryRetrieverOptions {
  /** Run directory holding `memory/memory.jsonl`; `user_id` requests fail without it. */
  runDir?: string | undefined;
  /** Serves the dense path through the llm layer's `embedder` role (offline embedding without an endpoint). */
  llm: LlmClient;
  /** Built memories kept (index building is the expensive part). @default 64 */
  cacheEntries?: number;
}

/**
 * @example
 * const retriever = createMemoryRetriever({ runDir: 'runs/demo', llm });
 * const { block } = await retriever({ user_id: 'u-0001', keywords: 'hotpot', start_time: null, end_time: null });
 */
export function createMemoryRetriever(options: MemoryRetrieverOptions): MemoryRetriever {
  const built = new Map<string, PersonaMemory>();
  const limit = options.cacheEntries ?? 64;
  const embedder = embedderFromLlm(options.llm);
  const memoryFor = (key: string, snapshot: MemorySnapshot) => {
    let memory = built.get(key);
    if (memory === undefined) {
      memory = createPersonaMemory({ snapshot, embedder });
      built.set(key, memory);
      if (built.size > limit) built.delete(built.keys().next().value as string);
    }
    return memory;
  };
  return async (request) => {
    let snapshot: MemorySnapshot;
    if (hasSnapshot(request.memory_snapshot)) {
      const raw =
        typeof request.memory_snapshot === 'string'
          ? parseJson(request.memory_snapshot)
          : request.memory_snapshot;
      const parsed = MemorySnapshot.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new InputError(
          'memory_snapshot',
          `not a memory snapshot: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
        );
      }
      snapshot = parsed.data;
    } else {
      if (options.runDir === undefined) {
        throw new InputError(
          'user_id',
          'this server has no memory run directory; send memory_snapshot or set memory.runDir',
        );
      }
      const userId = request.user_id as string;
      const at = request.time ?? request.end_time ?? '9999-12-31 23:59';
      const found = await loadMemorySnapshot(options.runDir, userId, at);
      if (found === null)
        throw new PersonaForgeError('NOT_FOUND', `user "${userId}" has no memory in ${options.runDir}`);
      snapshot = found;
    }
    const memory = memoryFor(hashValue(snapshot), snapshot);
    const topK: Partial<Record<'semantic' | 'episodic' | 'procedural', number>> = {
      ...(request.k === undefined ? {} : { semantic: request.k }),
      ...dropUndefined(request.top_k ?? {}),
    };
    const result = await retrieve(memory, {
      keywords: request.keywords,
      startTime: request.start_time ?? null,
      endTime: request.end_time ?? null,
      topK,
      exclude: request.exclude ?? [],
      asOf: request.time == null ? null : toIso(request.time),
    });
    return {
      block: formatMemoryBlock(result),
      results: result.entries.map(({ id, type, text, time, score }) => ({ id, type, text, time, score })),
    };
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError('memory_snapshot', `not valid JSON: ${(error as Error).message}`);
  }
}

function dropUndefined(value: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Record<
    string,
    number
  >;
}

/** `YYYY-MM-DD HH:MM` (UTC, the retrieve format) → ISO; other strings pass through. */
function toIso(time: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/.exec(time);
  return match === null ? time : `${match[1]}T${match[2]}:00.000Z`;
}
