import type { BigFive } from '../schemas/common.js';
import type { EvidenceSlot, Goal, Habit, Preference, UserPlan } from '../schemas/plan.js';

/** The planned state of a user at one instant, derived from the plan record alone. */
export interface PlanState {
  /** Preferences valid at the instant (validFrom ≤ t < validUntil). */
  preferences: Preference[];
  /** Active preference per conflict slot. */
  bySlot: Map<string, Preference>;
  bigFive: BigFive;
  people: Map<string, { closeness: number; frequency: number }>;
  goals: Map<string, Goal['states'][number]['status'] | null>;
  habits: Habit[];
  /** Evidence slots strictly before the instant. */
  evidence: EvidenceSlot[];
}

const at = (iso: string) => Date.parse(iso);

/**
 * What the plan says holds at `time` — the reference that checks, validation and QA tests compare
 * answers against. Reads only the plan record (no generator internals).
 *
 * @example stateAt(plan, plan.qa[0].questionTime).bySlot.get('food.coffee')?.item;
 */
export function stateAt(plan: UserPlan, time: string | number): PlanState {
  const t = typeof time === 'number' ? time : at(time);
  const valid = (from: string, until: string | null) => at(from) <= t && (until === null || at(until) > t);
  const preferences = plan.preferences.filter((p) => valid(p.validFrom, p.validUntil));
  const bySlot = new Map(preferences.map((p) => [p.slot, p]));
  const points = plan.personality.filter((point) => at(point.time) <= t);
  const bigFive = (points[points.length - 1] ?? plan.personality[0])?.bigFive ?? plan.enriched.bigFive;
  const people = new Map(
    plan.people.map((person) => {
      const entries = person.timeline.filter((entry) => at(entry.time) <= t);
      const last = entries[entries.length - 1] ?? person.timeline[0];
      return [person.id, { closeness: last?.closeness ?? 3, frequency: last?.frequency ?? 0 }];
    }),
  );
  const goals = new Map(
    plan.goals.map((goal) => {
      const states = goal.states.filter((state) => at(state.time) <= t);
      return [goal.id, states[states.length - 1]?.status ?? null];
    }),
  );
  return {
    preferences,
    bySlot,
    bigFive,
    people,
    goals,
    habits: plan.habits.filter((habit) => valid(habit.validFrom, habit.validUntil)),
    evidence: plan.slots.filter((slot) => at(slot.time) < t),
  };
}
