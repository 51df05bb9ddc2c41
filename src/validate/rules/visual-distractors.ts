import type { QaTarget } from '../../schemas/plan.js';
import type { RuleCheck, UserIndex } from '../types.js';
import { type PhotoVocabulary, photoVocabulary } from './photo-words.js';

/** The object a visual-detail question asks about (longest vocabulary name it mentions). */
function askedObject(question: string, vocabulary: PhotoVocabulary): string | null {
  const lower = question.toLowerCase();
  let best: string | null = null;
  for (const [name, forms] of vocabulary.names)
    if (
      forms.some((form) => new RegExp(`\\b${form}\\b`).test(lower)) &&
      (best === null || name.length > best.length)
    )
      best = name;
  return best;
}

/**
 * The problems of one visual-detail question (a colour or count of an object in a photo): the
 * answer must be true of its evidence photo, and no distractor may be true of any photo the
 * question's words can mean — every photo of the named concept ("the photo of Rex"), or every
 * photo with the object ("the photo with the ball") — nor of what the user said the concept is.
 *
 * @example visualQuestionProblems(index, qa) // ['distractor "Yellow" is the ball in another photo of Rex']
 */
export function visualQuestionProblems(
  index: UserIndex,
  qa: QaTarget,
  vocabulary: PhotoVocabulary = photoVocabulary(index.bundle.plan),
): string[] {
  const plan = index.bundle.plan;
  const count = /\bhow many\b/i.test(qa.question);
  if (!count && !/\bcolou?r\b/i.test(qa.question)) return [];
  const slot = qa.evidenceSlotIds.map((id) => index.slotsById.get(id)).find((s) => s?.imageId != null);
  const photo = slot?.imageId == null ? undefined : index.imagesById.get(slot.imageId);
  const object = askedObject(qa.question, vocabulary);
  if (slot === undefined || photo === undefined || object === null) return [];
  const attribute = (o: { color: string; count: number }) =>
    count ? String(o.count) : o.color.toLowerCase();
  const problems: string[] = [];
  const truth = photo.objects.filter((o) => o.name.toLowerCase() === object).map(attribute);
  if (!truth.includes(qa.answer.toLowerCase()))
    problems.push(`answer "${qa.answer}" is not the ${object} in its photo (${truth.join(', ') || 'none'})`);
  const concept = plan.concepts.find((c) => c.id === slot.refId);
  const meant =
    concept === undefined
      ? plan.images.filter((image) => image.objects.some((o) => o.name.toLowerCase() === object))
      : plan.images.filter((image) => concept.imageIds.includes(image.id) || image.id === photo.id);
  const values = new Map<string, string>();
  for (const image of meant)
    for (const o of image.objects)
      if (o.name.toLowerCase() === object)
        values.set(attribute(o), image.id === photo.id ? 'its photo' : image.id);
  if (concept !== undefined && !count)
    for (const word of concept.description.toLowerCase().split(/[^a-z]+/))
      if (vocabulary.colours.includes(word)) values.set(word, `the description of ${concept.name}`);
  qa.choices.forEach((choice, at) => {
    if (at === qa.correctIndex) return;
    const where = values.get(choice.toLowerCase());
    if (where !== undefined) problems.push(`distractor "${choice}" is true of the ${object} in ${where}`);
  });
  return problems;
}

/**
 * Visual-detail questions have one true option: no distractor is true of a photo the question can mean.
 *
 * @example visualDistractorsCheck.run(indexUser(bundle), options)
 */
export const visualDistractorsCheck: RuleCheck = {
  name: 'visual_distractors',
  description:
    'visual-detail answers are true of their photo and no distractor is true of any photo the question can mean',
  run(index) {
    const vocabulary = photoVocabulary(index.bundle.plan);
    return index.bundle.plan.qa
      .filter((qa) => qa.answerType === 'mc')
      .flatMap((qa) => {
        const problems = visualQuestionProblems(index, qa, vocabulary);
        return problems.length === 0
          ? []
          : [
              {
                check: 'visual_distractors',
                userId: index.bundle.plan.userId,
                location: `plan.qa[${qa.id}]`,
                reason: problems.join('; '),
              },
            ];
      });
  },
};
