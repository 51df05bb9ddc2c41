import type { UserPlan } from '../../schemas/plan.js';
import { slotMeaningProblems } from '../slot-meaning.js';
import type { UserIndex } from '../types.js';

type Slot = UserPlan['slots'][number];

/** A session's planned facts: those a judge must read, and those already settled without one. */
export interface SessionFacts {
  /** Facts the judge is asked about. */
  asked: Slot[];
  /** Facts settled as said: counted as expressed in `fact_expressed`, never sent. */
  settled: number;
}

/**
 * Splits the planned facts of a session into those a model judge must read and those already
 * settled. A fact is settled when the check-on-write accepted it (its slot id is on a user turn
 * of this session: the realizer's output passed the keyword check, the meaning reader and, where
 * the reader was unsure, the entailment judge `meaning-entailment/1`) and validation's own rule
 * reader agrees now (every keyword in that turn, no meaning problem). Anything else — a slot on
 * no turn, a keyword gone, a reading that contradicts the plan — is asked.
 *
 * @example sessionFacts(index, 0, true).asked.length // facts the judge still reads
 */
export function sessionFacts(index: UserIndex, sessionIndex: number, skipSettled: boolean): SessionFacts {
  const slots = index.bundle.plan.slots.filter((slot) => slot.sessionIndex === sessionIndex);
  if (!skipSettled) return { asked: slots, settled: 0 };
  const asked: Slot[] = [];
  let settled = 0;
  for (const slot of slots) {
    if (isSettled(index, slot, sessionIndex)) settled++;
    else asked.push(slot);
  }
  return { asked, settled };
}

function isSettled(index: UserIndex, slot: Slot, sessionIndex: number): boolean {
  const located = index.turnBySlot.get(slot.id);
  if (located === undefined || located.sessionIndex !== sessionIndex) return false;
  if (located.turn.speaker !== 'user') return false;
  const text = located.turn.text.toLowerCase();
  if (!slot.keywords.every((keyword) => text.includes(keyword.toLowerCase()))) return false;
  return slotMeaningProblems(index, slot, located.turn).length === 0;
}

/**
 * `fact_expressed` over all the session's facts: the settled ones count as said, the judge's
 * share covers the asked ones. Kept to two decimals, the judge's own scale.
 *
 * @example combineFactShare(0.5, { asked: [a, b], settled: 2 }) // 0.75
 */
export function combineFactShare(judged: number, facts: SessionFacts): number {
  const total = facts.asked.length + facts.settled;
  if (facts.settled === 0 || total === 0) return judged;
  const share = (facts.settled + judged * facts.asked.length) / total;
  return Math.round(share * 100) / 100;
}
