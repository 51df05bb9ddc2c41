import type { BigFive } from '../schemas/common.js';
import type { EvidenceSlot, Preference, SessionPlan, UserPlan } from '../schemas/plan.js';

/**
 * Read-only queries over a plan at a point in time: what the realizers need to build a chunk's
 * compact state without scanning the whole history.
 *
 * @example
 * const view = createPlanView(plan);
 * view.personalityAt('2024-03-10T10:00:00.000Z');
 */
export interface PlanView {
  plan: UserPlan;
  /** Big Five of the latest trajectory point at or before `time` (the first point before it). */
  personalityAt(time: string): BigFive;
  /** Preferences whose validity interval contains `time`. */
  activePreferences(time: string): Preference[];
  /** Slots a session's round must express. */
  slotsFor(sessionIndex: number, round: number): EvidenceSlot[];
  /** Planned noise kind of a round, or null. */
  noiseFor(sessionIndex: number, round: number): string | null;
  /** Planned image ids of a round. */
  imagesFor(sessionIndex: number, round: number): string[];
  /** Time of a round's user turn: session start + round × roundGapMinutes. */
  roundTime(session: SessionPlan, round: number): number;
  /** Entity description of a slot's refId (preference item, person, goal …) when the plan has one. */
  describe(slot: EvidenceSlot): string;
}

/** Indexes a plan once for O(1) per-round lookups. */
export function createPlanView(plan: UserPlan): PlanView {
  const slotIndex = new Map<string, EvidenceSlot[]>();
  for (const slot of plan.slots) {
    const key = `${slot.sessionIndex}:${slot.round}`;
    const list = slotIndex.get(key);
    if (list === undefined) slotIndex.set(key, [slot]);
    else list.push(slot);
  }
  const noiseIndex = new Map<string, string>();
  const imageIndex = new Map<string, string[]>();
  for (const session of plan.sessions) {
    for (const noise of session.noise) noiseIndex.set(`${session.index}:${noise.round}`, noise.kind);
    for (const image of session.images) {
      const key = `${session.index}:${image.round}`;
      imageIndex.set(key, [...(imageIndex.get(key) ?? []), image.imageId]);
    }
  }
  const personality = plan.personality
    .map((point) => ({ at: Date.parse(point.time), bigFive: point.bigFive }))
    .sort((a, b) => a.at - b.at);
  const preferences = plan.preferences.map((pref) => ({
    pref,
    from: Date.parse(pref.validFrom),
    until: pref.validUntil === null ? Number.POSITIVE_INFINITY : Date.parse(pref.validUntil),
  }));
  const descriptions = new Map<string, string>();
  for (const pref of plan.preferences) descriptions.set(pref.id, pref.item);
  for (const person of plan.people) descriptions.set(person.id, `${person.name}, ${person.relation}`);
  for (const goal of plan.goals) descriptions.set(goal.id, goal.description);
  for (const habit of plan.habits) descriptions.set(habit.id, habit.description);
  for (const concept of plan.concepts)
    descriptions.set(concept.id, `${concept.name} (${concept.description})`);
  for (const image of plan.images) descriptions.set(image.id, image.caption);
  for (const event of plan.drift) {
    const opened = event.preferenceId === null ? undefined : descriptions.get(event.preferenceId);
    const closed =
      event.previousPreferenceId === null ? undefined : descriptions.get(event.previousPreferenceId);
    descriptions.set(
      event.id,
      [closed && `no longer ${closed}`, opened && `now ${opened}`].filter(Boolean).join(', '),
    );
  }

  return {
    plan,
    personalityAt(time) {
      const at = Date.parse(time);
      let current = personality[0]!.bigFive;
      for (const point of personality) {
        if (point.at <= at) current = point.bigFive;
        else break;
      }
      return current;
    },
    activePreferences(time) {
      const at = Date.parse(time);
      return preferences.filter((entry) => entry.from <= at && at < entry.until).map((entry) => entry.pref);
    },
    slotsFor: (sessionIndex, round) => slotIndex.get(`${sessionIndex}:${round}`) ?? [],
    noiseFor: (sessionIndex, round) => noiseIndex.get(`${sessionIndex}:${round}`) ?? null,
    imagesFor: (sessionIndex, round) => imageIndex.get(`${sessionIndex}:${round}`) ?? [],
    roundTime: (session, round) => Date.parse(session.start) + round * session.roundGapMinutes * 60_000,
    describe: (slot) => descriptions.get(slot.refId) ?? slot.statement,
  };
}
