/**
 * Word-sequence matching for the frame reader (personality-frames.ts): a word or its lemma, "a|b"
 * alternatives, "*" any one word, "?x" an optional word; and the negation and clause limits the
 * frames and their stances share.
 */
import type { ParsedWord } from './personality-parse.js';

/** Words that put what follows out of play or turn it around. */
export const NEGATORS = new Set([
  'not',
  'never',
  'rarely',
  'hardly',
  'seldom',
  'nothing',
  'nobody',
  'no',
  'refuse',
  'refused',
  'without',
]);

/** The words of a sentence the frames are matched on: hyphens dropped ("laid-back" is "laid back"). */
export const wordsOf = (tokens: readonly ParsedWord[]) => tokens.filter((token) => token.lower !== '-');

/** True when `token` is the word `spec` names ("a|b", a word or its lemma). */
function meets(spec: string, token: ParsedWord, lemma: boolean): boolean {
  return spec.split('|').some((word) => token.lower === word || (lemma && token.lemma === word));
}

/** The index after a match of `words` at `at`, or −1. "**" skips up to four words ("invited half the office over"). */
export function matchAt(
  tokens: readonly ParsedWord[],
  at: number,
  words: readonly string[],
  lemma = true,
): number {
  let i = at;
  for (const [n, spec] of words.entries()) {
    const token = tokens[i];
    if (spec === '**') {
      for (let skip = 0; skip <= GAP_WORDS; skip++) {
        if (tokens.slice(i, i + skip).some((word) => word.pos === 'PUNCT')) break;
        const end = matchAt(tokens, i + skip, words.slice(n + 1), lemma);
        if (end >= 0) return end;
      }
      return -1;
    }
    if (spec.startsWith('?')) {
      if (token !== undefined && meets(spec.slice(1), token, lemma)) i++;
      continue;
    }
    if (token === undefined || token.pos === 'PUNCT') return -1;
    if (spec !== '*' && !meets(spec, token, lemma)) return -1;
    i++;
  }
  return i;
}

/** Words a "**" may skip. */
const GAP_WORDS = 4;

/**
 * True when a negator stands in the three words before `at` (the parser's negation runs to the
 * next punctuation mark: in "where I can't read the signs is my idea of heaven" it takes "heaven").
 */
export function negatedAt(tokens: readonly ParsedWord[], at: number): boolean {
  for (let j = at - 1; j >= Math.max(0, at - 3); j--) {
    const token = tokens[j]!;
    if (token.pos === 'PUNCT') return false;
    if (NEGATORS.has(token.lower) || NEGATORS.has(token.lemma)) return true;
  }
  return false;
}

/** Parts of speech a chat sentence may open with before its verb: "honestly spent the day…", "please keep…". */
export const OPENERS = new Set(['ADV', 'INTJ', 'CCONJ']);

/** Words that start a new clause, whose stance is its own: "I turned it down; a night in sounded better". */
export const CLAUSE_BREAKS = new Set([
  'but',
  'because',
  'so',
  'though',
  'although',
  'whereas',
  'while',
  'since',
  'yet',
]);

/** The clause number of each word (punctuation and the words above end a clause). */
export function clausesOf(tokens: readonly ParsedWord[]): number[] {
  let clause = 0;
  return tokens.map((token) => (token.pos === 'PUNCT' || CLAUSE_BREAKS.has(token.lower) ? ++clause : clause));
}
