/**
 * Issue 27's question-form figures of one user (items 5 and 8): personality alignment asked as a
 * question of its own, alignment levels other than the user's at question time, open RL rows of
 * questions with several true answers once their options are gone, and questions exported as
 * two RL rows.
 */
import { stemmer } from 'stemmer';
import { rlCandidateList } from '../export/samples.js';
import { BIG_FIVE_TRAITS } from '../schemas/common.js';
import type { ExportConfig } from '../schemas/export-config.js';
import type { QaTarget } from '../schemas/plan.js';
import type { UserIndex } from './types.js';

export function emptyFormCounts() {
  return {
    mmeCases: 0,
    standaloneAlignment: 0,
    alignedCases: 0,
    alignmentWrong: 0,
    rlQuestions: 0,
    rlTwice: 0,
    rlOpen: 0,
    rlOpenSeveral: 0,
    mcQuestions: 0,
    nearDuplicateOptions: 0,
  };
}
export type FormCounts = ReturnType<typeof emptyFormCounts>;

/** Tasks that ask for a suggestion: anything else the user likes in the category answers them too. */
const SUGGESTIONS = new Set([
  'implicit_preference_recommendation',
  'generalizing_to_new_scenarios',
  'provide_preference_aligned_recommendations',
  'suggest_new_ideas',
]);

/** Whether the question, without options, has more than one true answer (validation's own reading). */
export function severalTrueAnswers(index: UserIndex, qa: QaTarget): boolean {
  const plan = index.bundle.plan;
  const at = qa.questionTime;
  if (
    SUGGESTIONS.has(qa.task) ||
    (qa.task === 'implicit_intent_recognition' && !/\b(likes|dislikes)\b/i.test(qa.answer))
  ) {
    if (qa.task === 'suggest_new_ideas') return true;
    const item = plan.preferences.find((p) => p.item.toLowerCase() === qa.answer.toLowerCase());
    const liked = plan.preferences.filter(
      (p) =>
        p.polarity === 'like' &&
        p.category === (item?.category ?? p.category) &&
        p.validFrom <= at &&
        (p.validUntil === null || p.validUntil > at),
    );
    return liked.length > 1;
  }
  if (qa.task !== 'visual_detail_recall') return false;
  const slot = qa.evidenceSlotIds.map((id) => index.slotsById.get(id)).find((s) => s?.imageId != null);
  if (slot?.imageId == null) return false;
  const concept = plan.concepts.find((c) => c.id === slot.refId);
  const photos = plan.images.filter((image) =>
    concept === undefined ? image.id === slot.imageId : concept.imageIds.includes(image.id),
  );
  const question = qa.question.toLowerCase();
  const count = /\bhow many\b/.test(question);
  const values = new Set<string>();
  for (const photo of photos)
    for (const o of photo.objects)
      if (new RegExp(`\\b${o.name.toLowerCase()}(s|es)?\\b`).test(question))
        values.add(count ? String(o.count) : o.color.toLowerCase());
  return values.size > 1;
}

/** Stems of an option's words (Porter, the `stemmer` package). */
const stems = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z0-9']+/g) ?? []).map((w) => stemmer(w)));

/** An option's words as stems in order, articles left out ("Camping under the stars" → camp under star). */
const sequence = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((w) => !ARTICLES.has(w)).map((w) => stemmer(w));
const ARTICLES = new Set(['a', 'an', 'the']);

/** Whether `small` occurs as a run of consecutive words of `large`. */
function runOf(small: readonly string[], large: readonly string[]): boolean {
  if (small.length === 0 || small.length > large.length) return false;
  for (let start = 0; start + small.length <= large.length; start++)
    if (small.every((word, i) => large[start + i] === word)) return true;
  return false;
}

/**
 * Whether two options of one question name the same thing for a reader: the same stems, a
 * short option whose stems all recur in another with one more word ("Peanuts", "Salted peanuts"),
 * or an option whose words run inside another's ("Camping", "Camping under the stars"). A
 * preference history ("likes X -> dislikes X") that extends another is another history.
 */
export function sameThing(a: string, b: string): boolean {
  const [p, q] = [sequence(a), sequence(b)];
  // The same stems in the same order ("Peanut" / "Peanuts"); in another order is another answer.
  if (p.join(' ') === q.join(' ')) return true;
  if (!a.includes('->') && !b.includes('->') && (runOf(p, q) || runOf(q, p))) return true;
  const [x, y] = [stems(a), stems(b)];
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  return (
    small.size > 0 &&
    large.size <= 4 &&
    large.size - small.size === 1 &&
    [...small].every((s) => large.has(s))
  );
}

/**
 * An option no user's history can make true: a change to the state it came from ("Used to like
 * X, now likes X"), or a history that repeats a state with nothing between ("likes X -> likes X").
 */
export function selfContradictory(option: string): boolean {
  const change = /^used to (like|dislike) (.+?), now (like|dislike)s (.+)$/i.exec(option.trim());
  if (change !== null)
    return (
      change[1]!.toLowerCase() === change[3]!.toLowerCase() &&
      sequence(change[2]!).join(' ') === sequence(change[4]!).join(' ')
    );
  const steps = option.split('->').map((step) => sequence(step).join(' '));
  return steps.length > 1 && steps.some((step, i) => i > 0 && step === steps[i - 1]);
}

/** Counts one user's question forms (the RL rows as export makes them). */
export function measureQuestionForms(index: UserIndex, exportConfig: ExportConfig, n: FormCounts): void {
  const plan = index.bundle.plan;
  const byId = new Map(plan.qa.map((qa) => [qa.id, qa]));
  for (const qa of plan.qa) {
    if (qa.answerType === 'mc') {
      n.mcQuestions++;
      if (
        qa.choices.some((a, i) => qa.choices.some((b, j) => i < j && sameThing(a, b))) ||
        qa.choices.some(selfContradictory)
      )
        n.nearDuplicateOptions++;
    }
    if (qa.family !== 'persona-mme') continue;
    n.mmeCases++;
    if (qa.task === 'personality_alignment' || qa.answerType === 'binary') n.standaloneAlignment++;
    if (qa.alignment === undefined) continue;
    n.alignedCases++;
    const point = plan.personality.filter((p) => p.time <= qa.questionTime).pop();
    const level = point?.bigFive[qa.alignment.trait as (typeof BIG_FIVE_TRAITS)[number]];
    const furthest = Math.max(...BIG_FIVE_TRAITS.map((t) => Math.abs((point?.bigFive[t] ?? 3) - 3)));
    if (level !== qa.alignment.level || Math.abs(level - 3) < furthest) n.alignmentWrong++;
  }
  const rows = new Map<string, number>();
  for (const candidate of rlCandidateList(index.bundle, exportConfig)) {
    if (candidate.task === 'tree_ops') continue;
    const qaId = candidate.id.split(':').pop() as string;
    rows.set(qaId, (rows.get(qaId) ?? 0) + 1);
    const qa = byId.get(qaId);
    if (candidate.task === 'open' && qa?.answerType === 'mc') {
      n.rlOpen++;
      if (severalTrueAnswers(index, qa)) n.rlOpenSeveral++;
    }
  }
  n.rlQuestions += rows.size;
  for (const count of rows.values()) if (count > 1) n.rlTwice++;
}
