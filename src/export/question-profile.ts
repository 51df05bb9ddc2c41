import { describePreference } from '../plan/statements.js';
import { PROMPT_WITHHELD_FIELDS } from '../qa/tasks.js';
import type { MemorySnapshot } from '../schemas/memory.js';
import type { QaTarget, UserPlan } from '../schemas/plan.js';
import { renderProfile } from './render.js';

/**
 * The profile a question's system prompt shows: the memory snapshot taken before what the
 * question tests (`promptSnapshotTime`), less
 * - the fields that decide the question's answer (`PROMPT_WITHHELD_FIELDS`: a tiered explanation
 *   is pitched from the user's education, so `education:` would answer it), and
 * - preferences the user no longer holds at question time (the snapshot is older than the
 *   question, and a prompt listing a dropped preference argues for a wrong option).
 *
 * @example questionProfile(snapshotAt(memory.snapshots, promptSnapshotTime(plan, qa)), plan, qa)
 */
export function questionProfile(
  snapshot: MemorySnapshot | null,
  plan: Pick<UserPlan, 'preferences'>,
  qa: Pick<QaTarget, 'task' | 'questionTime'>,
): string {
  const profile = renderProfile(snapshot);
  const withheld = PROMPT_WITHHELD_FIELDS[qa.task] ?? [];
  const dropped = droppedBy(plan, qa.questionTime);
  if (withheld.length === 0 && dropped.size === 0) return profile;
  return profile
    .split('\n')
    .filter((line) => !withheld.some((field) => line.startsWith(`${field}: `)))
    .map((line) => {
      if (!line.startsWith('preferences: ') || dropped.size === 0) return line;
      const kept = line
        .slice('preferences: '.length)
        .split(';')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '' && !dropped.has(entry.toLowerCase()));
      return kept.length === 0 ? null : `preferences: ${kept.join('; ')}`;
    })
    .filter((line): line is string => line !== null)
    .join('\n');
}

/** Preferences (as core memory words them) held before `iso` and not at `iso`, unless an active one reads the same. */
function droppedBy(plan: Pick<UserPlan, 'preferences'>, iso: string): Set<string> {
  const held = new Set<string>();
  const ended = new Set<string>();
  for (const p of plan.preferences) {
    if (p.validFrom > iso) continue;
    const text = describePreference(p).toLowerCase();
    if (p.validUntil === null || p.validUntil > iso) held.add(text);
    else ended.add(text);
  }
  for (const text of held) ended.delete(text);
  return ended;
}
