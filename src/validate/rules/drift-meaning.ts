import { slotMeaningProblems } from '../slot-meaning.js';
import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * Every preference and drift slot says what the plan says, read by meaning, not keywords: the
 * polarity toward each item, whether a closed preference reads as ended, and the condition of
 * a conditional preference (src/synth/meaning.ts). Keywords alone pass "I have gotten into X"
 * for a planned new dislike; this rule does not.
 *
 * @example driftMeaningCheck.run(indexUser(bundle), options)
 */
export const driftMeaningCheck: RuleCheck = {
  name: 'drift_meaning',
  description: 'preference and drift turns state the planned polarity, operation and condition',
  run(index) {
    const { bundle, turnBySlot, slotsById } = index;
    const failures: RuleFailure[] = [];
    const plan = bundle.plan;
    for (const slot of slotsById.values()) {
      if (slot.kind !== 'preference' && slot.kind !== 'drift') continue;
      const located = turnBySlot.get(slot.id);
      if (located === undefined || located.turn.speaker !== 'user') continue; // slot_expressed reports it
      const problems = slotMeaningProblems(index, slot, located.turn);
      for (const problem of problems) {
        failures.push({
          check: 'drift_meaning',
          userId: plan.userId,
          location: located.turn.id,
          reason: `slot "${slot.id}" (${slot.kind}): ${problem}`,
        });
      }
    }
    return failures;
  },
};
