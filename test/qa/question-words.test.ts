/**
 * Closed questions are not answerable from the question and its options alone (issue 27, "every
 * question needs what it claims to test"): built plans measured with the lexical baseline, and
 * the shapes that keep each builder honest.
 */
import { describe, expect, it } from 'vitest';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { GOALS, HABITS } from '../../src/plan/catalogue/life-catalogue.js';
import { PREFERENCE_CATALOGUE } from '../../src/plan/catalogue/preference-catalogue.js';
import { CATEGORY_TOPICS, plainWords } from '../../src/qa/topics.js';
import type { QaTarget, UserPlan } from '../../src/schemas/plan.js';
import { contentStems } from '../../src/util/content-words.js';
import { addLexical, lexicalFigure, measureLexical } from '../../src/validate/fidelity-lexical.js';
import { sameThing, selfContradictory } from '../../src/validate/fidelity-questions.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

const images = fixtureImages(3);
/** Persona-MME and PersonaMem questions of 60 users (both families' closed questions). */
const plans: UserPlan[] = fixtureUsers(60, 3).map((user, i) =>
  buildUserPlan(
    { ...user, images },
    { config: i % 2 === 0 ? { profile: 'personavlm' } : { profile: 'persona-tree' }, seed: 9 },
  ),
);
const questions = plans.flatMap((plan) => plan.qa.filter((qa) => qa.answerType === 'mc'));
const ofTask = (task: string) => questions.filter((qa) => qa.task === task);
/** The question without its in-situ lead (Persona-MME's first sentence of situation). */
const body = (qa: QaTarget) =>
  qa.family === 'persona-mme' ? qa.question.replace(/^[^.?!]*[.?!]\s*/, '') : qa.question;

describe('closed questions built from plans', () => {
  it('leave the lexical question-only baseline within 5 points of chance', () => {
    const total = new Map<string, [number, number, number]>();
    for (const plan of plans) addLexical(total, measureLexical(plan.qa));
    const figure = lexicalFigure(total)!;
    expect(figure.of).toBeGreaterThan(1000);
    expect(figure.value).toBeLessThanOrEqual(5);
    expect(figure.ok).toBe(true);
  });

  it('never hold two options naming the same thing, nor an option no history makes true', () => {
    for (const qa of questions) {
      for (const [i, a] of qa.choices.entries())
        for (const b of qa.choices.slice(i + 1)) expect(sameThing(a, b), `${a} / ${b}`).toBe(false);
      for (const option of qa.choices) expect(selfContradictory(option), option).toBe(false);
    }
  });

  it('never ask a user one task’s same answer on the same evidence twice, in other words', () => {
    for (const plan of plans) {
      const keys = plan.qa
        .filter((qa) => qa.evidenceSlotIds.length > 0)
        .map((qa) => `${qa.task}|${qa.answer}|${qa.evidenceSlotIds.join()}`);
      expect(new Set(keys).size, plan.userId).toBe(keys.length);
    }
  });

  it('ask for a goal without naming any goal’s words', () => {
    const asked = ofTask('explicit_intent_inference');
    expect(asked.length).toBeGreaterThan(20);
    const goalWords = new Set(GOALS.flatMap((goal) => contentStems(goal.description)));
    for (const qa of asked)
      for (const stem of contentStems(body(qa)))
        expect(goalWords.has(stem), `${qa.question}: ${stem}`).toBe(false);
  });

  it('ask a habit by its time, with options that name no time', () => {
    const asked = ofTask('behavioral_pattern_recognition');
    expect(asked.length).toBeGreaterThan(10);
    for (const qa of asked) {
      expect(qa.question).toMatch(/every (morning|afternoon|evening|night)|on \w+day \w+s\?/);
      for (const option of qa.choices)
        expect(option).not.toMatch(/\bevery\b|before bed|\b\w+days? (morning|afternoon|evening|night)s?\b/i);
    }
    // The user does none of the other options at that time of day.
    for (const plan of plans)
      for (const qa of plan.qa.filter((q) => q.task === 'behavioral_pattern_recognition')) {
        const habit = plan.habits.find((h) =>
          h.description.toLowerCase().startsWith(qa.answer.toLowerCase()),
        )!;
        const sameTime = plan.habits.filter((h) => h.timeOfDay === habit.timeOfDay && h !== habit);
        for (const option of qa.choices.filter((c) => c !== qa.answer))
          expect(sameTime.some((h) => h.description.toLowerCase().startsWith(option.toLowerCase()))).toBe(
            false,
          );
      }
    expect(HABITS.length).toBeGreaterThan(4);
  });

  it('ask implicit intent only about what the user likes in a situation, not naming the item', () => {
    let asked = 0;
    for (const plan of plans)
      for (const qa of plan.qa.filter(
        (q) =>
          q.task === 'implicit_intent_recognition' &&
          /what am I likely to go for|tend to go for/.test(q.question),
      )) {
        asked++;
        const held = plan.preferences.filter(
          (p) =>
            p.item.toLowerCase() === qa.answer.toLowerCase() &&
            p.validFrom <= qa.questionTime &&
            (p.validUntil === null || p.validUntil > qa.questionTime),
        );
        expect(
          held.some(
            (p) =>
              p.polarity === 'like' &&
              p.condition !== null &&
              qa.question.toLowerCase().includes(p.condition.when),
          ),
        ).toBe(true);
        expect(held.some((p) => p.polarity === 'dislike')).toBe(false);
      }
    expect(asked).toBeGreaterThan(5);
  });

  it('set latest-preference options on one footing: two items, each liked and disliked', () => {
    const asked = ofTask('latest_preference_recognition');
    expect(asked.length).toBeGreaterThan(10);
    for (const qa of asked) {
      const items = new Set(qa.choices.map((c) => c.replace(/^(Likes|Dislikes) /, '')));
      expect(items.size, qa.choices.join(' | ')).toBe(2);
      expect(qa.choices.filter((c) => c.startsWith('Likes ')).length).toBe(2);
    }
  });

  it('name categories in words none of their catalogue items use', () => {
    for (const slot of PREFERENCE_CATALOGUE) {
      const phrase = plainWords(CATEGORY_TOPICS[slot.category]);
      for (const option of slot.options)
        for (const word of plainWords(option.item))
          expect(
            phrase.has(word) && !['my', 'and', 'on', 'i', 'what'].includes(word),
            `${slot.slot}: ${option.item}`,
          ).toBe(false);
    }
  });
});
