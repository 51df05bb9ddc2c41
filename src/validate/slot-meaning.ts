import type { Turn } from '../schemas/dialogue.js';
import type { Preference, UserPlan } from '../schemas/plan.js';
import { problemOf, readMeaning, slotExpectations } from '../synth/meaning/index.js';
import type { MeaningReading } from '../synth/meaning/types.js';
import type { UserIndex } from './types.js';

type Slot = UserPlan['slots'][number];

interface MeaningCache {
  prefs: ReadonlyMap<string, Preference>;
  bySlot: Map<Slot, { turn: Turn; readings: MeaningReading[] }>;
}

const caches = new WeakMap<UserIndex, MeaningCache>();

/**
 * How the meaning reader reads a preference or drift slot's turn against the plan, read once
 * per user and slot: the `drift_meaning` rule and the fidelity meter both ask.
 *
 * @example slotMeaningReadings(index, slot, turn).map((r) => r.verdict) // ['agrees']
 */
export function slotMeaningReadings(index: UserIndex, slot: Slot, turn: Turn): MeaningReading[] {
  let cache = caches.get(index);
  if (cache === undefined) {
    const plan = index.bundle.plan;
    cache = { prefs: new Map(plan.preferences.map((pref) => [pref.id, pref])), bySlot: new Map() };
    caches.set(index, cache);
  }
  const known = cache.bySlot.get(slot);
  if (known !== undefined && known.turn === turn) return known.readings;
  const readings = readMeaning(turn.text, slotExpectations(index.bundle.plan, slot, cache.prefs));
  cache.bySlot.set(slot, { turn, readings });
  return readings;
}

/**
 * How a preference or drift slot's turn misstates the plan: each reading that contradicts it,
 * and an item the turn never names (`meaningProblems`). An `unsure` reading is not a problem;
 * the fidelity section counts it.
 *
 * @example slotMeaningProblems(index, slot, index.turnBySlot.get(slot.id)!.turn) // [] when the turn says what the plan says
 */
export function slotMeaningProblems(index: UserIndex, slot: Slot, turn: Turn): string[] {
  return slotMeaningReadings(index, slot, turn).flatMap((reading) => problemOf(reading) ?? []);
}
