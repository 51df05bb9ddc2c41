import { describe, expect, it } from 'vitest';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { EXPLANATION_LEVELS, explanationLevel, explanationShares } from '../../src/qa/index.js';
import type { UserPlan } from '../../src/schemas/plan.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

const TIERED = 'tiered_explanation_delivery';
const USERS = 160;

function plansFor(keep: Record<string, number> | undefined): UserPlan[] {
  const images = fixtureImages();
  return fixtureUsers(USERS, 11).map((user) =>
    buildUserPlan(
      { ...user, images },
      { config: {}, seed: 5, ...(keep === undefined ? {} : { explanationKeep: keep }) },
    ),
  );
}

function goldCounts(plans: readonly UserPlan[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const plan of plans)
    for (const qa of plan.qa) if (qa.task === TIERED) counts.set(qa.answer, (counts.get(qa.answer) ?? 0) + 1);
  return counts;
}

describe('tiered explanation delivery', () => {
  it('has a level for every kind of schooling, each of them a possible gold', () => {
    expect(explanationLevel('doctorate')).toBe(EXPLANATION_LEVELS[0]);
    expect(explanationLevel("bachelor's degree")).toBe(EXPLANATION_LEVELS[1]);
    expect(explanationLevel('vocational training')).toBe(EXPLANATION_LEVELS[2]);
    expect(explanationLevel('secondary school (in progress)')).toBe(EXPLANATION_LEVELS[3]);
    // A school-leaving diploma is not a trade.
    expect(explanationLevel('High school diploma')).toBe(EXPLANATION_LEVELS[3]);
  });

  it('asks it of the rarest level’s count of each level’s users; unknown schooling counts for nothing', () => {
    const shares = explanationShares([
      'doctorate',
      'doctorate',
      'doctorate',
      'doctorate',
      "bachelor's degree",
      "bachelor's degree",
      'unknown',
    ]);
    expect(shares[EXPLANATION_LEVELS[0]]).toBe(0.5);
    expect(shares[EXPLANATION_LEVELS[1]]).toBe(1);
    // A level nobody has is asked of everyone who has it (nobody).
    expect(shares[EXPLANATION_LEVELS[2]]).toBe(1);
  });

  it('evens the golds out over the corpus and asks the same aspect’s other task in its place', () => {
    const educations = fixtureUsers(USERS, 11).map((user) => user.enriched.persona.education);
    const all = plansFor(undefined);
    const even = plansFor(explanationShares(educations));
    const before = goldCounts(all);
    const after = goldCounts(even);
    const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
    const largest = (counts: Map<string, number>) => Math.max(...counts.values()) / total(counts);
    // The education mix piles the golds on one level; evened out, a question-only reader that
    // answers the commonest gold gains little over chance (a quarter).
    expect(largest(before)).toBeGreaterThan(0.35);
    expect(largest(after)).toBeLessThan(0.35);
    expect(after.size).toBe(EXPLANATION_LEVELS.length);
    // The declined questions are not missing: the same aspect's other task is asked in their
    // place (it too can run out of subjects for a user, rarely).
    const growth = (plans: UserPlan[]) =>
      plans.flatMap((plan) => plan.qa).filter((qa) => qa.group === 'Personalized Growth Modeling').length;
    const mme = (plans: UserPlan[]) =>
      plans.flatMap((plan) => plan.qa).filter((qa) => qa.family === 'persona-mme').length;
    const declined = total(before) - total(after);
    expect(declined).toBeGreaterThan(20);
    expect(growth(all) - growth(even)).toBeLessThanOrEqual(declined / 10);
    expect(mme(all) - mme(even)).toBeLessThanOrEqual(declined / 10);
  });
});
