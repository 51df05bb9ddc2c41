import type { RuleCheck, RuleFailure } from '../types.js';

const key = (text: string) => text.trim().toLowerCase();

/**
 * Multiple-choice targets have exactly `mcOptions` (4) distinct options with exactly one equal to
 * the answer at `correctIndex`; binary targets have two distinct options; open ones no index.
 *
 * @example multipleChoiceCheck.run(indexUser(bundle), options)
 */
export const multipleChoiceCheck: RuleCheck = {
  name: 'multiple_choice',
  description: 'multiple choice has four distinct options and exactly one correct',
  run({ bundle }, { config }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    for (const qa of bundle.plan.qa) {
      const fail = (reason: string) =>
        failures.push({ check: 'multiple_choice', userId, location: `qa[${qa.id}]`, reason });
      if (qa.answerType === 'open') {
        if (qa.correctIndex !== null) fail('open question with a correctIndex');
        continue;
      }
      const expected = qa.answerType === 'mc' ? config.mcOptions : 2;
      if (qa.choices.length !== expected) fail(`${qa.choices.length} options, expected ${expected}`);
      const distinct = new Set(qa.choices.map(key));
      if (distinct.size !== qa.choices.length) fail('options are not distinct');
      if (qa.choices.some((choice) => choice.trim() === '')) fail('an option is empty');
      const matching = qa.choices.filter((choice) => key(choice) === key(qa.answer)).length;
      if (matching !== 1) fail(`${matching} options equal the answer "${qa.answer}", expected exactly 1`);
      if (qa.correctIndex === null || qa.correctIndex >= qa.choices.length) {
        fail(`correctIndex ${qa.correctIndex} is not an option index`);
      } else if (key(qa.choices[qa.correctIndex]!) !== key(qa.answer)) {
        fail(`correctIndex ${qa.correctIndex} points at "${qa.choices[qa.correctIndex]}", not the answer`);
      }
    }
    return failures;
  },
};
