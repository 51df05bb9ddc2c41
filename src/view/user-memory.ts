/**
 * One user's memory targets (the gold of every memory trace) and reasoning trajectories, decoded
 * from its memory record only when the reader opens them.
 */
import { join } from 'node:path';
import { decodeUserMemoryFields } from '../schemas/memory-record-codec.js';
import { MEMORY_FILE } from './build-index.js';
import { readSpan } from './read-span.js';
import type { IndexedUser, UserMemoryPage } from './types.js';

/** A target longer than this is cut (the page shows what it says, the export has it whole). */
const TARGET_CHARS = 1200;

interface MemoryRecord {
  traces?: Array<{ id: string; task: string; turnId: string; time: string; gold?: { text?: string } }>;
  trajectories?: UserMemoryPage['trajectories'];
}

export async function readUserMemory(runDir: string, user: IndexedUser): Promise<UserMemoryPage> {
  if (user.memory === null) return { targets: [], trajectories: [] };
  const raw = await readSpan<Record<string, unknown>>(join(runDir, MEMORY_FILE), user.memory);
  const memory = decodeUserMemoryFields(raw, ['traces', 'trajectories']) as MemoryRecord;
  return {
    targets: (memory.traces ?? []).map((t) => ({
      id: t.id,
      task: t.task,
      turnId: t.turnId,
      time: t.time,
      target: (t.gold?.text ?? '').slice(0, TARGET_CHARS),
    })),
    trajectories: (memory.trajectories ?? []).map((t) => ({
      qaId: t.qaId,
      question: t.question,
      messages: t.messages,
      answer: t.answer,
      retrievals: t.retrievals,
      firstRetrievalHit: t.firstRetrievalHit,
    })),
  };
}
