/**
 * How questions name what they ask about, without naming an option: a slot's topic as a noun
 * phrase that reads after "how I feel about" / "my taste in", and a category's phrase for
 * questions whose options span several slots. A question that names its answer's words (and not
 * the distractors') is answered from the question alone.
 */
import { baseSlot } from '../plan/preference-pool.js';
import { slotTopic } from '../plan/topic-words.js';
import type { PreferenceCategory } from '../schemas/plan.js';

/** Slot topics that are no noun phrase on their own ("how I feel about train"). */
const ASKED_TOPICS: Readonly<Record<string, string>> = {
  spicy: 'spicy food',
  bbq: 'barbecue',
  smoothie: 'smoothies',
  delivery: 'food delivery',
  beach: 'beach trips',
  japan: 'trips to Japan',
  train: 'train travel',
  cruise: 'cruises',
  solo: 'solo or group travel',
  packing: 'packing for trips',
  ski: 'winter sports',
  historic: 'historic sites',
  dance: 'dancing',
  reality: 'reality TV',
  luxury: 'luxury goods',
  online: 'online shopping',
  vinyl: 'vinyl records',
  birding: 'birding',
};

/** A slot's topic as a question asks it: "travel.train@…" → "train travel". */
export function askedTopic(slot: string): string {
  const key = baseSlot(slot).split('.')[1] ?? slot;
  return ASKED_TOPICS[key] ?? slotTopic(slot);
}

/**
 * A category's phrase for questions whose options come from several of its slots: words no
 * catalogue item of the category uses (test/qa/question-words.test.ts reads them against it).
 */
export const CATEGORY_TOPICS: Readonly<Record<PreferenceCategory, string>> = {
  food: 'eating and drinking',
  shopping: 'what I spend money on',
  travel: 'getting away',
  entertainment: 'my free time',
  lifestyle: 'my daily life',
  longtail: 'my hobbies',
};

/** Lower-case words of a text with a plural -s dropped ("Trains" → "train"). */
export function plainWords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    ),
  );
}

/** The words two texts share (plain words, function words aside), sorted. */
export function sharedWords(a: string, b: string): string[] {
  const other = plainWords(b);
  return [...plainWords(a)].filter((word) => !FUNCTION_WORDS.has(word) && other.has(word)).sort();
}

/** Whether two texts share a word. */
export const sharesWord = (a: string, b: string): boolean => sharedWords(a, b).length > 0;
/** Words every phrasing shares; they name nothing. */
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'my',
  'i',
  'of',
  'in',
  'on',
  'to',
  'for',
  'and',
  'at',
  'with',
  'what',
]);
