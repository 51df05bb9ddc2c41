import { beforeAll, describe, expect, it } from 'vitest';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { GOAL_OUTCOME_ANSWERS, GOAL_STATUS_ANSWERS } from '../../src/qa/index.js';
import type { QaTarget, UserPlan } from '../../src/schemas/plan.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

const plans: UserPlan[] = [];
beforeAll(() => {
  const images = fixtureImages();
  for (const user of fixtureUsers(300, 17))
    plans.push(buildUserPlan({ ...user, images }, { config: {}, seed: 3 }));
});

const questions = () =>
  plans.flatMap((plan) => plan.qa).filter((qa) => qa.task === 'long_term_goal_tracking');
const isOutcome = (qa: QaTarget) => /\bever\b/.test(qa.question);

function shares(items: readonly QaTarget[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const qa of items) counts.set(qa.answer, (counts.get(qa.answer) ?? 0) + 1);
  return new Map([...counts].map(([answer, n]) => [answer, n / items.length]));
}

describe('long-term goal tracking', () => {
  it('asks the progress and the outcome, each with its own four answers, every one of them some gold', () => {
    const progress = questions().filter((qa) => !isOutcome(qa));
    const outcome = questions().filter(isOutcome);
    expect(progress.length).toBeGreaterThan(100);
    expect(outcome.length).toBeGreaterThan(50);
    for (const qa of progress)
      expect([...qa.choices].sort()).toEqual(Object.values(GOAL_STATUS_ANSWERS).sort());
    for (const qa of outcome)
      expect([...qa.choices].sort()).toEqual(Object.values(GOAL_OUTCOME_ANSWERS).sort());
    // No answer is the form's given: the commonest gold of each form stays well under half.
    for (const [form, items] of [
      ['progress', progress],
      ['outcome', outcome],
    ] as const) {
      const byAnswer = shares(items);
      expect(byAnswer.size, form).toBe(4);
      expect(Math.max(...byAnswer.values()), form).toBeLessThan(0.46);
    }
  });

  it('says "not said" only when no end was said, and names a plan the user never had only then', () => {
    for (const plan of plans)
      for (const qa of plan.qa.filter((q) => q.task === 'long_term_goal_tracking' && isOutcome(q))) {
        const named = plan.goals.find((goal) => qa.question.includes(goal.description));
        if (qa.answer === GOAL_OUTCOME_ANSWERS.none) {
          expect(named, qa.question).toBeUndefined();
          expect(qa.evidenceSlotIds).toEqual([]);
          continue;
        }
        expect(named, qa.question).toBeDefined();
        // The evidence's last plan statement says how it stood then.
        const last = plan.slots.find((slot) => slot.id === qa.evidenceSlotIds.at(-1));
        const ended = /is (achieved|abandoned)$/.test(last?.statement ?? '');
        expect(qa.answer === GOAL_OUTCOME_ANSWERS.open, `${qa.question} ${last?.statement}`).toBe(!ended);
        expect(qa.unanswerable).toBe(!ended);
      }
  });
});
