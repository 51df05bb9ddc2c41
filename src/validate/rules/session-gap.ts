import type { RuleCheck, RuleFailure } from '../types.js';

const MINUTE = 60_000;

/**
 * Sessions are separated by at least t_s minutes and no gap inside a session reaches t_s
 * (SPEC.md §1: a gap ≥ t_s starts a new session, so either would contradict the segmentation).
 *
 * @example sessionGapCheck.run(indexUser(bundle), { config: { sessionGapMinutes: 60, … }, … })
 */
export const sessionGapCheck: RuleCheck = {
  name: 'session_gap',
  description: 'gaps between sessions ≥ t_s and gaps inside a session < t_s',
  run({ bundle, turnTimes }, { config }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    const gap = config.sessionGapMinutes * MINUTE;
    const sessions = bundle.dialogue.sessions;
    for (let s = 0; s < sessions.length; s++) {
      const session = sessions[s]!;
      const turns = session.turns;
      for (let t = 1; t < turns.length; t++) {
        const delta = turnTimes[s]![t]! - turnTimes[s]![t - 1]!;
        if (delta >= gap) {
          failures.push({
            check: 'session_gap',
            userId,
            location: turns[t]!.id,
            reason: `${(delta / MINUTE).toFixed(1)} min after the previous turn inside one session (t_s = ${config.sessionGapMinutes} min)`,
          });
        }
      }
      const next = sessions[s + 1];
      const last = turns[turns.length - 1];
      const first = next?.turns[0];
      if (next === undefined || last === undefined || first === undefined) continue;
      const between = turnTimes[s + 1]![0]! - turnTimes[s]![turns.length - 1]!;
      if (between < gap) {
        failures.push({
          check: 'session_gap',
          userId,
          location: `sessions[${next.index}]`,
          reason: `starts ${(between / MINUTE).toFixed(1)} min after the previous session's last turn (< t_s = ${config.sessionGapMinutes} min)`,
        });
      }
    }
    return failures;
  },
};
