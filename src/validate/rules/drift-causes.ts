import Sentiment from 'sentiment';
import type { DriftEvent, Preference, UserPlan } from '../../schemas/plan.js';
import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * The valence of a cause, read with AFINN-165 (the `sentiment` package) — a word list that has
 * nothing to do with the catalogue the plan draws causes from — plus the phrasal verbs of taking
 * something up ("got me into it", "introduced me to it", "kept recommending it") that AFINN rates
 * 0, read as positive.
 */
const analyzer = new Sentiment();
const UPTAKE =
  /\b(got|get|gets|getting) (me|us) into\b|\bintroduced (me|us) to\b|\brecommend(ed|ing|s)?\b|\bhooked\b/i;

export function causeValence(cause: string): number {
  const score = analyzer.analyze(cause).score;
  return score !== 0 ? Math.sign(score) : UPTAKE.test(cause) ? 1 : 0;
}

/**
 * The direction of a change as the plan has it: toward the thing (a new like, a dislike given up)
 * or away from it (a new dislike, a like given up).
 */
function direction(plan: UserPlan, event: DriftEvent): 'toward' | 'away' | null {
  const find = (id: string | null): Preference | undefined =>
    id === null ? undefined : plan.preferences.find((p) => p.id === id);
  const next = find(event.preferenceId);
  if (next !== undefined) return next.polarity === 'like' ? 'toward' : 'away';
  const previous = find(event.previousPreferenceId);
  if (previous === undefined) return null;
  return previous.polarity === 'dislike' ? 'toward' : 'away';
}

/** The problem of an explicit drift event's cause, or null: a positive cause for a turn away, a negative one for a turn toward. */
export function driftCauseProblem(plan: UserPlan, event: DriftEvent): string | null {
  if (event.visibility !== 'explicit') return null;
  const way = direction(plan, event);
  const valence = causeValence(event.cause);
  if (way === 'away' && valence > 0)
    return `a ${event.type} away from it (a new dislike or a like given up) gives a positive cause: "${event.cause}"`;
  if (way === 'toward' && valence < 0)
    return `a ${event.type} toward it (a new like or a dislike given up) gives a negative cause: "${event.cause}"`;
  return null;
}

/**
 * Drift causes run the way the change runs (issue 27, item 2): "I cannot stand fast fashion now,
 * because I tried it on a trip and loved it" fails, and so does every reason question whose gold
 * is that cause.
 *
 * @example driftCausesCheck.run(indexUser(bundle), options)
 */
export const driftCausesCheck: RuleCheck = {
  name: 'drift_causes',
  description: 'an explicit drift event has a cause that runs the way the change runs',
  run({ bundle }) {
    const plan = bundle.plan;
    const failures: RuleFailure[] = [];
    for (const event of plan.drift) {
      const problem = driftCauseProblem(plan, event);
      if (problem !== null)
        failures.push({
          check: 'drift_causes',
          userId: plan.userId,
          location: `plan.drift[${event.id}]`,
          reason: problem,
        });
    }
    return failures;
  },
};
