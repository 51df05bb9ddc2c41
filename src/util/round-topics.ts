import type { EvidenceSlot, SessionPlan } from '../schemas/plan.js';

/** Topic label of a slot, e.g. "preferences: hotpot" (the plan's session topics, the realizer's and the episodes'). */
export function slotTopic(slot: EvidenceSlot): string {
  switch (slot.kind) {
    case 'preference':
    case 'drift':
      return `preferences: ${slot.keywords[0] ?? ''}`;
    case 'relationship':
      return 'people in my life';
    case 'goal':
      return `goals: ${slot.keywords[0] ?? ''}`;
    case 'habit':
      return 'routines';
    case 'image':
      return 'photos';
    case 'personality':
      return 'how I have been feeling';
    default:
      return 'about me';
  }
}

/**
 * The topic each round of a session is about: the topic of the round's evidence slot, and for a
 * round without one (small talk, noise) the topic of the last slot before it (the first slot's
 * before any). The offline realizer says each round's topic from it and the episodic gold cuts
 * the session into episodes where it changes, so an episode's label is what its rounds talk about.
 *
 * @example roundTopics(plan.slots, plan.sessions[0])[3] // 'preferences: uniqlo'
 */
export function roundTopics(slots: readonly EvidenceSlot[], session: SessionPlan): string[] {
  const own = slots
    .filter((slot) => slot.sessionIndex === session.index && slot.kind !== 'noise')
    .sort((a, b) => a.round - b.round);
  const first = own[0];
  let current = first === undefined ? (session.topics[0] ?? 'conversation') : slotTopic(first);
  const out: string[] = [];
  let next = 0;
  for (let round = 0; round < session.rounds; round++) {
    let set = false;
    while (next < own.length && (own[next] as EvidenceSlot).round <= round) {
      if (!set) current = slotTopic(own[next] as EvidenceSlot);
      set = true;
      next++;
    }
    out.push(current);
  }
  return out;
}
