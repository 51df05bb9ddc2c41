import type { QaTarget } from '../schemas/plan.js';

/**
 * One answer convention per question family, shared by the SFT trajectories, the RL `solution`
 * column, the evaluation sets and the `answer-convention` validation rule:
 *
 * - multiple choice (`mc`): the option letter in parentheses, `(b)` — what the reasoning system
 *   prompt asks for; the accuracy reward also accepts the option text;
 * - yes/no (`binary`): the chosen option's text (`Yes` / `No`);
 * - open: the planned answer text (judged by meaning).
 */

/** "(a)", "(b)", … for option index i. */
export function optionLabel(index: number): string {
  return `(${String.fromCharCode(97 + index)})`;
}

/** The answer a target's rows must carry. @example canonicalAnswer(mcTarget) // '(c)' */
export function canonicalAnswer(
  qa: Pick<QaTarget, 'answerType' | 'choices' | 'correctIndex' | 'answer'>,
): string {
  const correct = qa.correctIndex ?? 0;
  if (qa.answerType === 'mc') return optionLabel(correct);
  if (qa.answerType === 'binary') return qa.choices[correct] ?? qa.answer;
  return qa.answer;
}

/** The explicit "cannot answer from memory" reply of a trajectory that found no evidence. */
export const NOT_IN_MEMORY = "I don't have that information in memory.";

/**
 * Whether a final answer follows the convention for its target: the canonical answer, or the
 * not-in-memory reply (a trajectory whose retrievals found nothing says so instead of guessing).
 */
export function followsAnswerConvention(
  qa: Pick<QaTarget, 'answerType' | 'choices' | 'correctIndex' | 'answer'>,
  answer: string,
): boolean {
  const text = answer.trim();
  return text === canonicalAnswer(qa) || text === NOT_IN_MEMORY;
}
