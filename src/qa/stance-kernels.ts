/**
 * Questions about a stance the user holds now: the latest preference in a slot, and what the
 * user goes for in a situation they named (Persona-MME's implicit intent). Their options carry
 * the same words the question does — two items, each liked and disliked; or items of one
 * category under no time phrase — so only what the user said picks the answer.
 */
import { SLOT_BY_KEY, SLOTS_BY_CATEGORY } from '../plan/catalogue/preference-catalogue.js';
import { baseSlot } from '../plan/preference-pool.js';
import { preferenceAnswer } from '../plan/statements.js';
import type { Preference } from '../schemas/plan.js';
import { capitalize } from './preference-kernels.js';
import {
  activePreferences,
  ask,
  isoAt,
  type Kernel,
  knownPreferences,
  preferenceEvidence,
  type QaContext,
} from './qa-context.js';
import { PERSONAMEM_TOPICS } from './tasks.js';
import { askedTopic, CATEGORY_TOPICS, sharedWords, sharesWord } from './topics.js';

/** Whether one item's words run inside the other's ("durian" / "fresh durian"): options naming the same thing. */
const nested = (a: string, b: string) => {
  const [x, y] = [` ${a.toLowerCase()} `, ` ${b.toLowerCase()} `];
  return x.includes(y) || y.includes(x);
};

/** Items the user holds any stance on at `time` (in any situation). */
function heldItems(context: QaContext, time: number): Set<string> {
  return new Set(activePreferences(context, time).map((p) => p.item.toLowerCase()));
}

/**
 * An item to set beside the asked one: an earlier state of the same slot first (the change a
 * "latest" question tests), then another option of the slot, then an item of another slot of
 * the category; never one the user holds a stance on now, nor one naming the same thing.
 */
function contrastItem(
  context: QaContext,
  preference: Preference,
  time: number,
): { item: string; sameSlot: boolean } | null {
  const held = heldItems(context, time);
  const fits = (item: string) =>
    !held.has(item.toLowerCase()) && !nested(item, preference.item) && item !== '';
  const earlier = context.plan.preferences
    .filter((p) => p.slot === preference.slot && p.validFrom <= isoAt(time))
    .map((p) => p.item)
    .filter(fits);
  if (earlier.length > 0) return { item: context.rng.pick(earlier), sameSlot: true };
  const spec = SLOT_BY_KEY.get(baseSlot(preference.slot));
  const options = (spec?.options ?? []).map((o) => o.item).filter(fits);
  if (options.length > 0) return { item: context.rng.pick(options), sameSlot: true };
  const others = (SLOTS_BY_CATEGORY.get(preference.category) ?? [])
    .filter((s) => s !== spec)
    .map((s) => s.options[0]?.item ?? '')
    .filter(fits);
  return others.length > 0 ? { item: context.rng.pick(others), sameSlot: false } : null;
}

/**
 * "Right now, which best describes how I feel about cheese?" — options: the asked item liked and
 * disliked, and another item (an earlier state of the slot where there is one) liked and
 * disliked, all under the preference's condition. The question names the slot's topic when it
 * shares the same words with both items (or none), the category's phrase otherwise. Open questions
 * (LoCoMo) name the slot: one stance per slot is its one answer.
 */
export const latestPreference: Kernel = (context, time, spec) => {
  const known = knownPreferences(context, time);
  if (known.length === 0) return null;
  const preference = context.rng.pick(known);
  const contrast = spec.answerType === 'open' ? null : contrastItem(context, preference, time);
  if (spec.answerType !== 'open' && contrast === null) return null;
  const slotPhrase = askedTopic(preference.slot);
  const balanced =
    contrast === null ||
    (contrast.sameSlot &&
      sharedWords(slotPhrase, preference.item).join() === sharedWords(slotPhrase, contrast.item).join());
  const topic = balanced ? slotPhrase : CATEGORY_TOPICS[preference.category];
  const when = preference.condition === null ? '' : ` ${preference.condition.when}`;
  const question =
    spec.family === 'locomo'
      ? ask(
          context,
          `What is my current preference when it comes to ${topic}${when}?`,
          `These days, what is my take on ${topic}${when}?`,
        )
      : spec.family === 'personamem'
        ? ask(
            context,
            `I was thinking about ${topic}${when} again — remind me where I stand on it these days?`,
            `Where do I currently stand on ${topic}${when}? I keep forgetting.`,
          )
        : ask(
            context,
            `Right now, which best describes how I feel about ${topic}${when}?`,
            `Which of these matches my current feelings about ${topic}${when}?`,
          );
  const stance = (item: string, polarity: Preference['polarity']) =>
    preferenceAnswer({ item, polarity, condition: preference.condition });
  const flip = preference.polarity === 'like' ? 'dislike' : 'like';
  return {
    question,
    answer: preferenceAnswer(preference),
    distractors:
      contrast === null
        ? [stance(preference.item, flip)]
        : [stance(preference.item, flip), stance(contrast.item, 'like'), stance(contrast.item, 'dislike')],
    evidence: preferenceEvidence(context, preference, time),
    retrievalKeywords: [...preference.keywords, topic],
    topic: PERSONAMEM_TOPICS[preference.category] ?? 'general',
    // Named by its category, the question has an answer per liked item once its options are gone.
    ...(balanced ? {} : { openable: false }),
  };
};

/**
 * Persona-MME's implicit intent: "On weekday mornings, what am I likely to go for when it comes
 * to my free time?" — about a like the user tied to a situation, answered by its item; the
 * distractors are items of the same category the user does not like in any situation. Neither
 * the answer nor a distractor shares a word with the situation ("shopping online at night" is
 * not asked "late at night").
 */
export const implicitIntent: Kernel = (context, time) => {
  const known = knownPreferences(
    context,
    time,
    (p) => p.condition !== null && p.polarity === 'like' && !sharesWord(p.item, p.condition.when),
  );
  if (known.length === 0) return null;
  const preference = context.rng.pick(known);
  const condition = preference.condition as NonNullable<Preference['condition']>;
  const liked = new Set(
    activePreferences(context, time)
      .filter((p) => p.polarity === 'like')
      .map((p) => p.item.toLowerCase()),
  );
  const items = (SLOTS_BY_CATEGORY.get(preference.category) ?? [])
    .flatMap((slot) => slot.options.map((option) => option.item))
    .filter(
      (item) =>
        !liked.has(item.toLowerCase()) && !nested(item, preference.item) && !sharesWord(item, condition.when),
    );
  const phrase = CATEGORY_TOPICS[preference.category];
  const when = condition.when;
  return {
    question: ask(
      context,
      `${capitalize(when)}, what am I likely to go for when it comes to ${phrase}?`,
      `What do I tend to go for ${when}, when it comes to ${phrase}?`,
    ),
    answer: capitalize(preference.item),
    distractors: items.map(capitalize),
    evidence: preferenceEvidence(context, preference, time),
    retrievalKeywords: [...preference.keywords, when],
    // Without options, anything else the user likes in that situation answers it too.
    openable: false,
  };
};
