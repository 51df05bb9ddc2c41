import { isOpListItem } from './item-context.js';
import { extractAnswer } from './parse-response.js';
import { fromJudge, type ItemOutcome, notApplicable, type RewardFunction } from './types.js';

/**
 * Consistency between reasoning, retrieved memory and answer, by the LLM judge (SPEC.md §1:
 * "consistency between reasoning and answer"). Range [0, 1]; no answer scores 0.
 *
 * @example POST /v1/rewards {"reward":"consistency","items":[{"completion":"<think>…</think><answer>…</answer>"}]}
 */
export const consistencyReward: RewardFunction = {
  name: 'consistency',
  description:
    'LLM judge: does the answer follow from the <think> reasoning and the memory retrieved in the rollout? Range [0,1].',
  requiredColumns: [],
  usesJudge: true,
  score(run) {
    return run.items.map((item, index): ItemOutcome | Promise<ItemOutcome> => {
      if (isOpListItem(item)) return notApplicable('op-list item: score it with tree_ops');
      const context = run.context(index);
      const answer = extractAnswer(context.parsed, item.completion);
      if (answer === null) return { value: 0 };
      return run.judge
        .evaluate('consistency', {
          question: context.question,
          reasoning: context.reasoning,
          memory: context.memory,
          answer,
        })
        .then((outcome) => {
          run.noteJudge(outcome);
          return fromJudge(outcome);
        });
    });
  },
};
