/**
 * Conditions read by meaning: "whenever I'm on the road for work" keeps "when travelling for
 * work". Each planned condition is a set of concept groups; a clause keeps the condition when it
 * has a word of every group. Conditions outside the catalogue fall back to their own content
 * words, one group each.
 */
import { sameWord } from './mentions.js';
import { lemmas } from './nlp.js';
import type { Token } from './types.js';

/** Concept groups by lemma ("a b" is a two-word phrase). */
const CONCEPTS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  'on weekday mornings': [
    [
      'weekday',
      'workday',
      'work day',
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'before work',
      'workweek',
      'commute',
    ],
    ['morning', 'breakfast', 'first thing', 'wake', 'sunrise', 'dawn', 'early'],
  ],
  'late at night': [
    [
      'night',
      'midnight',
      'after dark',
      'late',
      'small hour',
      'wee hour',
      'bedtime',
      'before bed',
      'in the morning',
    ],
  ],
  'on weekends': [['weekend', 'saturday', 'sunday']],
  'with family': [
    [
      'family',
      'parent',
      'sibling',
      'mom',
      'mum',
      'dad',
      'mother',
      'father',
      'relative',
      'kid',
      'child',
      'grandparent',
      'in-law',
    ],
  ],
  'with colleagues': [
    ['colleague', 'coworker', 'co-worker', 'team', 'office', 'from work', 'workmate', 'boss'],
  ],
  'on a date': [['date', 'someone special', 'romantic', 'anniversary']],
  'when stressed': [
    [
      'stress',
      'stressed',
      'overwhelm',
      'overwhelming',
      'pressure',
      'frazzle',
      'frazzled',
      'anxious',
      'tense',
      'pile up',
      'go wrong',
      'bad day',
      'burnout',
      'swamp',
      'swamped',
      'hectic',
    ],
  ],
  'when travelling for work': [
    ['travel', 'travelling', 'traveling', 'trip', 'road', 'away', 'hotel', 'flight', 'conference'],
    ['work', 'business', 'conference', 'client'],
  ],
  'on rainy days': [
    ['rain', 'rainy', 'pour', 'drizzle', 'wet', 'storm', 'stormy', 'downpour', 'grey', 'gray'],
  ],
};

const STOP = new Set([
  'when',
  'on',
  'at',
  'with',
  'for',
  'a',
  'an',
  'the',
  'i',
  'am',
  'be',
  'in',
  'my',
  'of',
  'to',
]);

const groupsCache = new Map<string, string[][][]>();

/** The concept groups of a condition, each word as lemmas. */
export function conditionGroups(condition: string): string[][][] {
  const key = condition.toLowerCase().trim();
  const known = groupsCache.get(key);
  if (known !== undefined) return known;
  const groups =
    CONCEPTS[key]?.map((group) => group.map((phrase) => phrase.split(' '))) ??
    lemmas(key)
      .filter((lemma) => !STOP.has(lemma) && /\p{L}/u.test(lemma))
      .map((lemma) => [[lemma]]);
  groupsCache.set(key, groups);
  return groups;
}

/** Where a phrase of lemmas starts in the tokens (-1 when absent). */
function find(tokens: readonly Token[], phrase: readonly string[], skip: ReadonlySet<number>): number {
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (skip.has(i)) continue;
    if (phrase.every((word, j) => tokens[i + j] !== undefined && sameWord(tokens[i + j]!, word))) return i;
  }
  return -1;
}

/**
 * The positions of the words that keep the condition in `tokens`, or null when a group has no
 * word there. `skip` holds the positions of the item's own words ("late" in "staying up late").
 */
export function conditionEvidence(
  tokens: readonly Token[],
  condition: string,
  skip: ReadonlySet<number> = new Set(),
): number[] | null {
  const found: number[] = [];
  for (const group of conditionGroups(condition)) {
    const at = group.map((phrase) => find(tokens, phrase, skip)).filter((i) => i >= 0);
    if (at.length === 0) return null;
    found.push(Math.min(...at));
  }
  return found;
}
