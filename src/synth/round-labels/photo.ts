/**
 * A photo turn written by a model is checked by a model (`photo-description/1`): the user's
 * message presents the photo and names its subject, and says nothing of what it shows (a colour,
 * a count, other objects), so a visual question about it needs the image. The offline colour and
 * count readers (src/validate/rules/photo-words.ts) stay on offline text.
 */
import { z } from 'zod';
import type { LlmClient } from '../../llm/types.js';
import type { UserPlan } from '../../schemas/plan.js';
import { photoSubject } from '../llm-realizer.js';
import { answersById, messagesOf } from './ask.js';
import type { RoundLabelOptions, RoundLabelProblem, WrittenRound } from './types.js';

export const PHOTO_PROMPT_VERSION = 'photo-description/1';

const SYSTEM = [
  `[${PHOTO_PROMPT_VERSION}] You check user chat messages that share photos. Each PHOTO question gives a round and what its photo is of (its subject, the only thing the writer was told).`,
  'Answer for each: "shown": the message presents a photo (it holds the <image> placeholder and speaks of sharing or showing it); "subject": it names that subject (by its name or its kind); "details": the words that state what the photo shows beyond its subject (a colour, a count, other objects, where things are), empty when none.',
  'Return JSON {"answers": [{"id": "...", "shown": true | false, "subject": true | false, "details": ["..."]}]} with one answer per question.',
].join('\n');

export const PhotoAnswers = z.object({
  answers: z.array(
    z.object({ id: z.string(), shown: z.boolean(), subject: z.boolean(), details: z.array(z.string()) }),
  ),
});
export type PhotoAnswers = z.infer<typeof PhotoAnswers>;

/**
 * Checks every photo of a chunk's rounds in one call; empty (and no call) when no round has one.
 *
 * @example const problems = await checkPhotos(llm, 'judge', plan, rounds, { stage: 'synth' });
 */
export async function checkPhotos(
  llm: LlmClient,
  role: string,
  plan: UserPlan,
  rounds: readonly WrittenRound[],
  options: RoundLabelOptions,
): Promise<{ problems: RoundLabelProblem[]; calls: number }> {
  const questions = rounds.flatMap((round) =>
    round.images.map((imageId) => {
      const image = plan.images.find((i) => i.id === imageId);
      return { round, subject: image === undefined ? 'a photo' : photoSubject(image) };
    }),
  );
  if (questions.length === 0) return { problems: [], calls: 0 };
  const ids = questions.map((_, i) => `p${i + 1}`);
  const lines = [
    ...messagesOf(questions.map((q) => q.round)),
    ...questions.map(
      (q, i) => `PHOTO ${ids[i]} (round ${q.round.round}): the message must present ${q.subject}`,
    ),
  ];
  const answer = await llm.structured<PhotoAnswers>(role, {
    schema: PhotoAnswers,
    schemaName: 'photo_description',
    stage: options.stage,
    temperature: 0,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: lines.join('\n') },
    ],
    // Answered only by `persona-forge estimate`'s recorder, which walks the model path without a model.
    offline: () => ({ answers: ids.map((id) => ({ id, shown: true, subject: true, details: [] })) }),
  });
  const byId = answersById(answer.answers, ids, PHOTO_PROMPT_VERSION);
  const problems: RoundLabelProblem[] = [];
  questions.forEach((q, i) => {
    const a = byId.get(ids[i]!)!;
    const wrong = [
      ...(a.shown ? [] : ['present the photo']),
      ...(a.subject ? [] : [`name ${q.subject.replace(/^a photo of /, '')}`]),
    ];
    const said =
      a.details.length === 0
        ? ''
        : `, and never say what it shows (it said ${a.details.map((d) => `"${d}"`).join(', ')})`;
    if (wrong.length === 0 && said === '') return;
    const must = wrong.length === 0 ? 'share the photo' : wrong.join(' and ');
    problems.push({ round: q.round.round, prompt: PHOTO_PROMPT_VERSION, reason: `must ${must}${said}` });
  });
  return { problems, calls: 1 };
}
