import type { Turn } from '../schemas/dialogue.js';
import type { Preference, UserPlan } from '../schemas/plan.js';
import { meaningProblems, slotExpectations } from '../synth/meaning.js';
import type { UserIndex } from './types.js';

type Slot = UserPlan['slots'][number];

interface MeaningCache {
  prefs: ReadonlyMap<string, Preference>;
  bySlot: Map<Slot, { turn: Turn; problems: string[] }>;
}

const caches = new WeakMap<UserIndex, MeaningCache>();

/**
 * How a preference or drift slot's turn misstates the plan (`meaningProblems`), read once per
 * user and slot: the `drift_meaning` rule and the fidelity meter both ask, and reading stances
 * is the most expensive step of validation.
 *
 * @example slotMeaningProblems(index, slot, index.turnBySlot.get(slot.id)!.turn) // [] when the turn says what the plan says
 */
export function slotMeaningProblems(index: UserIndex, slot: Slot, turn: Turn): string[] {
  let cache = caches.get(index);
  if (cache === undefined) {
    const plan = index.bundle.plan;
    cache = { prefs: new Map(plan.preferences.map((pref) => [pref.id, pref])), bySlot: new Map() };
    caches.set(index, cache);
  }
  const known = cache.bySlot.get(slot);
  if (known !== undefined && known.turn === turn) return known.problems;
  const problems = meaningProblems(turn.text, slotExpectations(index.bundle.plan, slot, cache.prefs));
  cache.bySlot.set(slot, { turn, problems });
  return problems;
}
