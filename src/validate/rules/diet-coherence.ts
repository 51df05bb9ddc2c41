import { dietConflict } from '../../plan/preference-pool.js';
import type { RuleCheck, RuleFailure } from '../types.js';

const end = (iso: string | null) => (iso === null ? Number.POSITIVE_INFINITY : Date.parse(iso));

/**
 * No user holds preferences that rule each other out at the same time (a vegetarian diet and a
 * liked meat dish): agents trained on such a user learn that stated constraints do not matter.
 *
 * @example dietCoherenceCheck.run(indexUser(bundle), options)
 */
export const dietCoherenceCheck: RuleCheck = {
  name: 'diet_coherence',
  description: 'no two preferences held at the same time contradict each other (vegetarian and meat dishes)',
  run({ bundle }) {
    const failures: RuleFailure[] = [];
    const likes = bundle.plan.preferences.filter((p) => p.polarity === 'like');
    for (let i = 0; i < likes.length; i++) {
      for (let j = i + 1; j < likes.length; j++) {
        const [a, b] = [likes[i]!, likes[j]!];
        const overlap =
          Date.parse(a.validFrom) < end(b.validUntil) && Date.parse(b.validFrom) < end(a.validUntil);
        if (overlap && dietConflict(a, [b]))
          failures.push({
            check: 'diet_coherence',
            userId: bundle.plan.userId,
            location: `plan.preferences[${a.id}]`,
            reason: `"${a.item}" and "${b.item}" (${b.id}) are liked at the same time`,
          });
      }
    }
    return failures;
  },
};
