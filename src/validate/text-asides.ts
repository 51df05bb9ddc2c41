/**
 * How a user turn strings its sentences together, read with the English parser (src/util/nlp.ts)
 * and a lexicon of its own (never the realizer's banks): the same lead-in said twice in one turn
 * ("For context, … For context, …"), asides stacked in one turn ("Not that it matters, but … By the
 * way, …"), and a clause whose subject "I" binds the object "me" ("I helped me through a hard
 * week": the pronoun of someone else was voiced as the user's).
 */
import { type ReadSentence, tagSentences } from '../util/nlp.js';

/** A lead-in is the words before a comma, colon or dash within a sentence's first five tokens. */
const LEAD_IN_TOKENS = 5;
const LEAD_IN_END = new Set([',', ':', '-', '–', '—']);

/**
 * English digression markers: what a speaker puts before a remark that is beside the point. The
 * validator's own list, written from usage guides, not from the phrase banks.
 */
const ASIDE_MARKERS: readonly string[] = [
  'by the way',
  'btw',
  'incidentally',
  'as an aside',
  'on a side note',
  'side note',
  'side detail',
  'for context',
  'for what it is worth',
  "for what it's worth",
  'not that it matters',
  'in case it matters',
  'not that it changes anything',
  'not that it is important',
  'unrelated',
  'on an unrelated note',
  'totally unrelated',
  'random update',
  'fun fact',
  'in other news',
  'speaking of which',
  'while i think of it',
  'before i forget',
];

/** Subject pronoun → the object pronoun that, in its own clause, must be the reflexive instead. */
const SAME_PERSON: Readonly<Record<string, string>> = { i: 'me', we: 'us' };
/** Tags that may stand between a subject and its verb ("I have really helped"). */
const BEFORE_VERB = new Set(['AUX', 'ADV', 'PART']);

const lower = (sentence: ReadSentence) => sentence.tokens.map((token) => token.toLowerCase());

/**
 * The lead-in of a sentence (lower case, '' when it has none): "For context, the café was full"
 * → "for context".
 *
 * @example leadIn(tagSentences('Honestly, I love it.')[0]) // 'honestly'
 */
export function leadIn(sentence: ReadSentence): string {
  const words = lower(sentence);
  const end = words.findIndex((word, i) => i > 0 && i <= LEAD_IN_TOKENS && LEAD_IN_END.has(word));
  if (end < 0) return '';
  return words
    .slice(0, end)
    .filter((_, i) => sentence.pos[i] !== 'PUNCT')
    .join(' ');
}

/** Whether a sentence opens with a digression marker. */
export function isAside(sentence: ReadSentence): boolean {
  const opening = lower(sentence)
    .filter((_, i) => sentence.pos[i] !== 'PUNCT')
    .slice(0, 6)
    .join(' ');
  return ASIDE_MARKERS.some((marker) => opening === marker || opening.startsWith(`${marker} `));
}

/**
 * Clauses whose subject "I" (or "we") is the object "me" ("us") of its own verb: "I helped me".
 *
 * @example reflexiveErrors(tagSentences('I helped me through a hard week.')[0]) // ['i helped me']
 */
export function reflexiveErrors(sentence: ReadSentence): string[] {
  const words = lower(sentence);
  const { pos } = sentence;
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const object = SAME_PERSON[words[i] as string];
    if (object === undefined || pos[i] !== 'PRON') continue;
    let j = i + 1;
    while (j < words.length && BEFORE_VERB.has(pos[j] as string)) j++;
    if (pos[j] !== 'VERB') continue;
    let k = j + 1;
    // A particle or preposition of a phrasal verb ("looked after me") keeps the same clause.
    if (pos[k] === 'ADP' || pos[k] === 'PART') k++;
    if (words[k] === object) found.push(words.slice(i, k + 1).join(' '));
  }
  return found;
}

/** What one user turn's sentences show: repeated lead-ins, aside sentences, reflexive errors. */
export interface TurnAsides {
  repeatedLeadIns: string[];
  asides: number;
  reflexive: string[];
}

/**
 * Reads one turn's sentences (as src/util/nlp.ts tags them).
 *
 * @example readAsides(tagSentences('For context, I was tired. For context, it rained.')).repeatedLeadIns // ['for context']
 */
export function readAsides(sentences: readonly ReadSentence[]): TurnAsides {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  let asides = 0;
  const reflexive: string[] = [];
  for (const sentence of sentences) {
    const opening = leadIn(sentence);
    if (opening !== '') {
      if (seen.has(opening)) repeated.add(opening);
      seen.add(opening);
    }
    if (isAside(sentence)) asides++;
    reflexive.push(...reflexiveErrors(sentence));
  }
  return { repeatedLeadIns: [...repeated], asides, reflexive };
}

/**
 * Reads one turn.
 *
 * @example turnAsides('I helped me through a hard week.').reflexive // ['i helped me']
 */
export function turnAsides(text: string): TurnAsides {
  return readAsides(tagSentences(text));
}
