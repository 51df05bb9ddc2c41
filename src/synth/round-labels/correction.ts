/**
 * A correction turn written by a model is checked by a model (`correction-check/1`): it corrects
 * the detail the plan pairs it with (the misstatement of an earlier round) and takes back none of
 * the preferences the user still holds. The offline scope reader (names of held items in the
 * text, src/validate/rules/correction-scope.ts) stays on offline text.
 */
import { z } from 'zod';
import type { LlmClient } from '../../llm/types.js';
import type { PlanView } from '../plan-view.js';
import { slipOf } from '../slips.js';
import { answersById, messagesOf } from './ask.js';
import type { RoundLabelOptions, RoundLabelProblem, WrittenRound } from './types.js';

export const CORRECTION_PROMPT_VERSION = 'correction-check/1';

const SYSTEM = [
  `[${CORRECTION_PROMPT_VERSION}] You check user chat messages that correct something the user said wrong earlier. Each CORRECTION question gives a round, the practical detail it must correct and the preferences the user still holds.`,
  'Answer for each: "corrects": the message corrects that detail (its right value, or that the earlier value was wrong, in any words); "retracts": the held preferences the message takes back or says it was wrong about, empty when none; "quote": the words you relied on.',
  'Return JSON {"answers": [{"id": "...", "corrects": true | false, "retracts": ["..."], "quote": "..."}]} with one answer per question.',
].join('\n');

export const CorrectionAnswers = z.object({
  answers: z.array(
    z.object({
      id: z.string(),
      corrects: z.boolean(),
      retracts: z.array(z.string()),
      quote: z.string().nullish(),
    }),
  ),
});
export type CorrectionAnswers = z.infer<typeof CorrectionAnswers>;

/**
 * Checks every correction round of a chunk in one call; empty (and no call) when it has none.
 *
 * @example const problems = await checkCorrections(llm, 'judge', view, 2, rounds, { stage: 'synth' });
 */
export async function checkCorrections(
  llm: LlmClient,
  role: string,
  view: PlanView,
  sessionIndex: number,
  rounds: readonly WrittenRound[],
  options: RoundLabelOptions,
): Promise<{ problems: RoundLabelProblem[]; calls: number }> {
  const questions = rounds.flatMap((round) => {
    const slip = round.noise === 'correction' ? slipOf(view.plan, sessionIndex, round.round) : null;
    if (slip === null) return [];
    const held = view
      .activePreferences(new Date(round.time).toISOString())
      .map((p) => `${p.polarity === 'like' ? 'likes' : 'dislikes'} ${p.item}`);
    return [{ round, slip, held }];
  });
  if (questions.length === 0) return { problems: [], calls: 0 };
  const ids = questions.map((_, i) => `c${i + 1}`);
  const lines = [
    ...messagesOf(questions.map((q) => q.round)),
    ...questions.map(
      (q, i) =>
        `CORRECTION ${ids[i]} (round ${q.round.round}): the user must correct ${q.slip.detail}: it is ${q.slip.right}, not ${q.slip.wrong} as said in round ${q.slip.slipRound}. Preferences they still hold: ${q.held.join('; ') || 'none'}.`,
    ),
  ];
  const answer = await llm.structured<CorrectionAnswers>(role, {
    schema: CorrectionAnswers,
    schemaName: 'correction_check',
    stage: options.stage,
    temperature: 0,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: lines.join('\n') },
    ],
    // Answered only by `persona-forge estimate`'s recorder, which walks the model path without a model.
    offline: () => ({ answers: ids.map((id) => ({ id, corrects: true, retracts: [], quote: '' })) }),
  });
  const byId = answersById(answer.answers, ids, CORRECTION_PROMPT_VERSION);
  const problems: RoundLabelProblem[] = [];
  questions.forEach((q, i) => {
    const a = byId.get(ids[i]!)!;
    const parts = [
      ...(a.corrects ? [] : [`correct ${q.slip.detail} (${q.slip.right}, not ${q.slip.wrong})`]),
      ...(a.retracts.length === 0 ? [] : [`take back nothing else (it took back ${a.retracts.join(', ')})`]),
    ];
    if (parts.length > 0)
      problems.push({
        round: q.round.round,
        prompt: CORRECTION_PROMPT_VERSION,
        reason: `must ${parts.join(' and ')}`,
      });
  });
  return { problems, calls: 1 };
}
