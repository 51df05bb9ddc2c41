import { goldChoice, looksLikeChoice, matchChoice, readChoices } from './choice-match.js';
import { hasValue, isOpListItem } from './item-context.js';
import { extractAnswer } from './parse-response.js';
import { fromJudge, type ItemOutcome, invalidItem, notApplicable, type RewardFunction } from './types.js';

/**
 * Accuracy against `solution` (SPEC.md §1: accuracy vs reference). Multiple choice and binary
 * (`answer_type` `mc`/`binary`, or inferred from `choices` / a letter or yes/no solution) by
 * exact option match; open-ended by the LLM judge (CORRECT → 1, WRONG → 0). A completion with
 * no answer (a `<retrieve>` turn, empty text) scores 0: that is the policy's miss, not a failure.
 *
 * @example POST /v1/rewards {"reward":"accuracy","items":[{"completion":"<answer>(b)</answer>","solution":"b","choices":["x","y"]}]}
 */
export const accuracyReward: RewardFunction = {
  name: 'accuracy',
  description:
    'Answer vs `solution`: exact option match for multiple choice/binary (robust to "(b)", "b", "B.", option text); LLM judge (generous on wording and dates) for open-ended. 1 or 0.',
  requiredColumns: ['solution'],
  usesJudge: true,
  score(run) {
    return run.items.map((item, index): ItemOutcome | Promise<ItemOutcome> => {
      if (isOpListItem(item)) return notApplicable('op-list item: score it with tree_ops');
      const solution = item.solution;
      if (solution === undefined || solution === null) return notApplicable('no `solution` column');
      if (typeof solution === 'string' && solution.trim() === '') return invalidItem('`solution` is empty');
      const choicesColumn = [item.choices, item.options, item.all_options].find(hasValue);
      const choices = choicesColumn === undefined ? null : readChoices(choicesColumn);
      if (choicesColumn !== undefined && choices === null) {
        return invalidItem('`choices` must be a list of strings or an object of option texts');
      }
      const declared = typeof item.answer_type === 'string' ? item.answer_type : null;
      if (declared !== null && !['mc', 'binary', 'open'].includes(declared)) {
        return invalidItem(`answer_type must be mc, binary or open (got "${declared}")`);
      }
      const type =
        declared ??
        (typeof solution === 'number'
          ? 'mc'
          : (looksLikeChoice(solution) ?? (choices !== null ? 'mc' : 'open')));
      const context = run.context(index);
      const answer = extractAnswer(context.parsed, item.completion);
      if (type !== 'open') {
        const options = choices ?? (type === 'binary' ? ['Yes', 'No'] : null);
        const gold = goldChoice(solution, options);
        if (gold === null) return invalidItem(`solution "${solution}" names no option`);
        if (answer === null) return { value: 0 };
        return { value: matchChoice(answer, options) === gold ? 1 : 0 };
      }
      if (answer === null) return { value: 0 };
      return run.judge
        .evaluate('accuracy', { question: context.question, reference: String(solution), answer })
        .then((outcome) => {
          run.noteJudge(outcome);
          return fromJudge(outcome);
        });
    });
  },
};
