import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * Turn timestamps strictly increase inside and across sessions; sessions start strictly after
 * the previous one ends and their `start`/`end` bracket their turns (SPEC.md §1 rule checks).
 *
 * @example chronologyCheck.run(indexUser(bundle), options) // [] when ordered
 */
export const chronologyCheck: RuleCheck = {
  name: 'chronology',
  description: 'turn and session timestamps strictly chronological',
  run({ bundle, turnTimes }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    let previous = Number.NEGATIVE_INFINITY;
    let previousId = '(start)';
    let previousSessionEnd = Number.NEGATIVE_INFINITY;
    for (const [s, session] of bundle.dialogue.sessions.entries()) {
      const times = turnTimes[s]!;
      const start = Date.parse(session.start);
      const end = Date.parse(session.end);
      const where = `sessions[${session.index}]`;
      if (!(start > previousSessionEnd)) {
        failures.push({
          check: 'chronology',
          userId,
          location: where,
          reason: `session starts at ${session.start}, not after the previous session's end`,
        });
      }
      if (end < start) {
        failures.push({
          check: 'chronology',
          userId,
          location: where,
          reason: `session ends (${session.end}) before it starts (${session.start})`,
        });
      }
      for (const [t, turn] of session.turns.entries()) {
        const time = times[t]!;
        if (!(time > previous)) {
          failures.push({
            check: 'chronology',
            userId,
            location: turn.id,
            reason: `turn time ${turn.time} is not after ${previousId}`,
          });
        }
        if (time < start || time > end) {
          failures.push({
            check: 'chronology',
            userId,
            location: turn.id,
            reason: `turn time ${turn.time} lies outside its session [${session.start}, ${session.end}]`,
          });
        }
        previous = time;
        previousId = turn.id;
      }
      previousSessionEnd = end;
    }
    return failures;
  },
};
