/**
 * Leaves quarantined units out of a user that is otherwise exported (validation.json `units`
 * and `droppedQa`): the removed rounds and sessions, every memory target that shows one of their
 * turns, the memory entries written from them (and trajectories that retrieved those), and the
 * questions whose evidence sat in them. What remains never points at a removed turn.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { UserMemory } from '../schemas/memory.js';
import { readJson } from '../util/fs.js';
import type { ExportBundle } from './read-run.js';

/** What to remove from one user. */
export interface UserDrops {
  turns: ReadonlySet<string>;
  qa: ReadonlySet<string>;
}

/**
 * The drops per user recorded by validate (empty when the run has no validation.json or none).
 *
 * @example const drops = await readUnitDrops('out/q'); drops.get('train-00003')?.turns
 */
export async function readUnitDrops(runDir: string): Promise<Map<string, UserDrops>> {
  const path = join(runDir, 'validation.json');
  const drops = new Map<string, { turns: Set<string>; qa: Set<string> }>();
  if (!existsSync(path)) return drops;
  const report = (await readJson(path)) as {
    units?: Array<{ userId: string; turns: string[] }>;
    droppedQa?: Array<{ userId: string; qaId: string }>;
  };
  const of = (userId: string) => {
    let entry = drops.get(userId);
    if (entry === undefined) {
      entry = { turns: new Set(), qa: new Set() };
      drops.set(userId, entry);
    }
    return entry;
  };
  for (const unit of report.units ?? []) for (const id of unit.turns) of(unit.userId).turns.add(id);
  for (const qa of report.droppedQa ?? []) of(qa.userId).qa.add(qa.qaId);
  return drops;
}

/**
 * A copy of the bundle without the dropped turns (sessions left empty go too), questions,
 * memory traces showing a dropped turn, memory entries written from one, and trajectories that
 * answer a dropped question or retrieved a dropped entry.
 *
 * @example const kept = pruneBundle(bundle, { turns: new Set(['u:S3:T12', 'u:S3:T13']), qa: new Set() });
 */
export function pruneBundle(bundle: ExportBundle, drops: UserDrops | undefined): ExportBundle {
  if (drops === undefined || (drops.turns.size === 0 && drops.qa.size === 0)) return bundle;
  const gone = drops.turns;
  const droppedIndices = new Map<number, Set<number>>();
  const sessions = bundle.dialogue.sessions
    .map((session) => {
      const indices = new Set(session.turns.filter((turn) => gone.has(turn.id)).map((turn) => turn.index));
      if (indices.size > 0) droppedIndices.set(session.index, indices);
      return { ...session, turns: session.turns.filter((turn) => !gone.has(turn.id)) };
    })
    .filter((session) => session.turns.length > 0);
  const plan = { ...bundle.plan, qa: bundle.plan.qa.filter((qa) => !drops.qa.has(qa.id)) };
  return {
    plan,
    dialogue: { ...bundle.dialogue, sessions },
    memory: bundle.memory === null ? null : pruneMemory(bundle.memory, drops, droppedIndices),
  };
}

function pruneMemory(
  memory: UserMemory,
  drops: UserDrops,
  droppedIndices: ReadonlyMap<number, ReadonlySet<number>>,
): UserMemory {
  const quoted = [...drops.turns].map((id) => JSON.stringify(id));
  const showsDropped = (value: unknown) => {
    if (quoted.length === 0) return false;
    const text = JSON.stringify(value);
    return quoted.some((id) => text.includes(id));
  };
  const droppedEntries = new Set<string>();
  const snapshots = memory.snapshots.map((snapshot) => ({
    ...snapshot,
    semantic: snapshot.semantic.filter((entry) => {
      if (!drops.turns.has(entry.turnId)) return true;
      droppedEntries.add(entry.id);
      return false;
    }),
    episodic: snapshot.episodic.flatMap((entry) => {
      const indices = droppedIndices.get(entry.sessionIndex);
      if (indices === undefined) return [entry];
      const turnIndices = entry.turnIndices.filter((i) => !indices.has(i));
      if (turnIndices.length > 0) return [{ ...entry, turnIndices }];
      droppedEntries.add(entry.id);
      return [];
    }),
  }));
  return {
    ...memory,
    snapshots,
    traces: memory.traces.filter((trace) => !drops.turns.has(trace.turnId) && !showsDropped(trace.input)),
    trajectories: memory.trajectories.filter(
      (trajectory) =>
        !drops.qa.has(trajectory.qaId) &&
        !trajectory.steps.some((step) => step.retrievedIds.some((id) => droppedEntries.has(id))),
    ),
  };
}
