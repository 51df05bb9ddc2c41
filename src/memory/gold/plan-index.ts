import type { BigFive } from '../../schemas/common.js';
import type { DriftEvent, EvidenceSlot, Preference, UserPlan } from '../../schemas/plan.js';

/** Lookups over a plan that the gold-target builders share. */
export interface PlanIndex {
  plan: UserPlan;
  slot(id: string): EvidenceSlot | undefined;
  preference(id: string): Preference | undefined;
  drift(id: string): DriftEvent | undefined;
  /** The plan's personality point in force at `time` (ISO). */
  personalityAt(time: string): BigFive;
  /** Preferences valid at `time`: validFrom ≤ t < validUntil. */
  activeAt(time: string): Preference[];
}

/**
 * Indexes a plan by id.
 *
 * @example
 * const index = indexPlan(plan); index.slot('slot-0001')?.kind;
 */
export function indexPlan(plan: UserPlan): PlanIndex {
  const slots = new Map(plan.slots.map((slot) => [slot.id, slot]));
  const preferences = new Map(plan.preferences.map((preference) => [preference.id, preference]));
  const drifts = new Map(plan.drift.map((event) => [event.id, event]));
  const points = [...plan.personality].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  return {
    plan,
    slot: (id) => slots.get(id),
    preference: (id) => preferences.get(id),
    drift: (id) => drifts.get(id),
    personalityAt: (time) => {
      const at = Date.parse(time);
      let current = (points[0] as (typeof points)[number]).bigFive;
      for (const point of points) if (Date.parse(point.time) <= at) current = point.bigFive;
      return current;
    },
    activeAt: (time) => {
      const at = Date.parse(time);
      return plan.preferences.filter(
        (preference) =>
          Date.parse(preference.validFrom) <= at &&
          (preference.validUntil === null || at < Date.parse(preference.validUntil)),
      );
    },
  };
}

/**
 * A preference as the canonical clause memory stores: `likes spicy Sichuan hotpot` (+ condition).
 *
 * @example
 * preferenceClause({ polarity: 'like', item: 'jasmine tea', condition: null }); // 'likes jasmine tea'
 */
export function preferenceClause(preference: Pick<Preference, 'polarity' | 'item' | 'condition'>): string {
  const verb = preference.polarity === 'like' ? 'likes' : 'dislikes';
  return `${verb} ${preference.item}${preference.condition === null ? '' : ` ${preference.condition.when}`}`;
}
