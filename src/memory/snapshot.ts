import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
import { MemorySnapshot, UserMemory } from '../schemas/memory.js';
import { readJsonl } from '../util/fs.js';
import { parseRetrieveTime } from './retrieval/time-window.js';

/** Path of the memory stage's output inside a run directory. */
export const MEMORY_OUTPUT = 'memory/memory.jsonl';

const cache = new Map<string, { mtimeMs: number; users: Map<string, MemorySnapshot[]> }>();

async function loadSnapshots(file: string): Promise<Map<string, MemorySnapshot[]>> {
  const info = await stat(file).catch((error: unknown) => {
    throw new InputError(file, `cannot read memory output: ${(error as Error).message}`, {
      cause: error,
      hint: 'run `persona-forge memory <run-dir>` first',
    });
  });
  const cached = cache.get(file);
  if (cached !== undefined && cached.mtimeMs === info.mtimeMs) return cached.users;
  const users = new Map<string, MemorySnapshot[]>();
  for await (const raw of readJsonl(file)) {
    const record = UserMemory.parse(raw);
    users.set(
      record.userId,
      record.snapshots.map((snapshot) => MemorySnapshot.parse(snapshot)),
    );
  }
  cache.set(file, { mtimeMs: info.mtimeMs, users });
  return users;
}

/**
 * The memory state of `userId` at `time`: the latest session-end snapshot taken at or before
 * `time` (ISO or `YYYY-MM-DD HH:MM`, read as UTC). Null when the user is unknown. Reads
 * `<runDir>/memory/memory.jsonl` once per file version (cached by mtime).
 *
 * @example
 * const snapshot = await loadMemorySnapshot('runs/demo', 'u-0001', '2024-03-05 14:07');
 */
export async function loadMemorySnapshot(
  runDir: string,
  userId: string,
  time: string,
): Promise<MemorySnapshot | null> {
  const at = parseRetrieveTime(time, 'start');
  if (at === null)
    throw new InputError('time', `cannot read "${time}" as a time (use YYYY-MM-DD HH:MM or ISO)`);
  const users = await loadSnapshots(join(runDir, MEMORY_OUTPUT));
  const snapshots = users.get(userId);
  if (snapshots === undefined) return null;
  return latestSnapshotAt(snapshots, at);
}

/**
 * The latest snapshot with `time ≤ at` (epoch ms), else the first (the state before any session).
 *
 * @example
 * latestSnapshotAt(record.snapshots, Date.parse(qa.questionTime));
 */
export function latestSnapshotAt(snapshots: readonly MemorySnapshot[], at: number): MemorySnapshot | null {
  let best: MemorySnapshot | null = snapshots[0] ?? null;
  for (const snapshot of snapshots) {
    if (Date.parse(snapshot.time) <= at) best = snapshot;
  }
  return best;
}
