import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * Every answerable QA target is supported by evidence turns dated strictly before the question:
 * each evidence slot maps (through the dialogue's `slots` lists) to a turn earlier than the
 * question time. Unanswerable targets carry no evidence.
 *
 * @example qaEvidenceCheck.run(indexUser(bundle), options)
 */
export const qaEvidenceCheck: RuleCheck = {
  name: 'qa_evidence',
  description: 'every QA answer supported by evidence turns strictly before the question',
  run({ bundle, turnBySlot, slotsById }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    for (const qa of bundle.plan.qa) {
      const where = `qa[${qa.id}]`;
      if (qa.unanswerable) continue;
      if (qa.evidenceSlotIds.length === 0) {
        failures.push({
          check: 'qa_evidence',
          userId,
          location: where,
          reason: 'answerable question without evidence slots',
        });
        continue;
      }
      const asked = Date.parse(qa.questionTime);
      for (const slotId of qa.evidenceSlotIds) {
        if (!slotsById.has(slotId)) {
          failures.push({
            check: 'qa_evidence',
            userId,
            location: where,
            reason: `evidence slot "${slotId}" is not in the plan`,
          });
          continue;
        }
        const located = turnBySlot.get(slotId);
        if (located === undefined) {
          failures.push({
            check: 'qa_evidence',
            userId,
            location: where,
            reason: `no turn expresses evidence slot "${slotId}"`,
          });
        } else if (!(Date.parse(located.turn.time) < asked)) {
          failures.push({
            check: 'qa_evidence',
            userId,
            location: where,
            reason: `evidence ${located.turn.id} at ${located.turn.time} is not before the question at ${qa.questionTime}`,
          });
        }
      }
    }
    return failures;
  },
};
