/**
 * The speaker's stance in a sentence, for the frame reader's topics (personality-frames.ts):
 * words for and against, a preference turned around ("rather X than Y"), what nothing beats, and
 * which stance word speaks for a topic (the nearest in its clause, with no other verb between).
 */
import { clausesOf, matchAt, negatedAt } from './personality-match.js';
import type { ParsedWord } from './personality-parse.js';

/** Stance words: for (+) or against (−) what the sentence is about. */
const FOR = new Set(
  `love adore enjoy like prefer crave miss alive blast fun great brilliant amazing awesome best happiest happy
  wonderful fantastic suit thrive buzz energise energize energised energized favourite favorite exciting thrill
  recharge peaceful bliss heaven rather better fine excited excite`.split(/\s+/),
);
export const AGAINST = new Set(
  `hate dislike avoid skip dodge cancel bail decline dread drain drained exhaust exhausting exhausted tire tiring
  bore bored boring waste awkward overwhelming nightmare miserable loathe detest torture annoying stressful`.split(
    /\s+/,
  ),
);
/** Verbs whose object the speaker gives up: "rather lose an argument", "rather skip the party". */
const LOSSES = new Set(['lose', 'skip', 'miss', 'avoid', 'quit', 'cancel', 'forgo']);
/** Phrases of stance: "made my day", "can't stand", "wears me out", "left early". */
const STANCE_PHRASES: ReadonlyArray<{ words: readonly string[]; value: 1 | -1 }> = [
  ...[
    'not want|wanted it any other way',
    'make|made|makes my day',
    'blow|blew|blows my mind',
    'be into',
    'fancy',
    'in my element',
    'look|looking forward',
    'can|could not wait',
    'every minute',
    'need|needed|needs',
    'want|wanted|wants',
  ].map((p) => ({ words: p.split(' '), value: 1 as const })),
  ...[
    'can|could not stand',
    'wear|wears|wore me out',
    'turn|turned|turning down',
    'leave|left early',
    'left after',
    'not my thing',
    'not really my thing',
    'not one for',
    'never * one for',
    'not into',
    'not see the point',
    'not bother with',
    'too loud',
    'too crowded',
    'sick of',
    'fed up',
  ].map((p) => ({ words: p.split(' '), value: -1 as const })),
];

/** True when a word against stands before `at` in its clause: "I can't stand leaving things till the last minute". */
export function rejectedAt(tokens: readonly ParsedWord[], at: number): boolean {
  for (let j = at - 1; j >= 0 && tokens[j]!.pos !== 'PUNCT'; j--) {
    const token = tokens[j]!;
    if (
      AGAINST.has(token.lemma) ||
      token.lemma === 'hate' ||
      (token.lemma === 'stand' && tokens[j - 1]?.lemma === 'not')
    )
      return true;
  }
  return false;
}

/** The index of the word that turns a preference around: "rather X than Y", "X instead of Y", "prefer X to Y". */
function turnOf(tokens: readonly ParsedWord[]): number {
  const prefer = tokens.findIndex((token) => token.lower === 'rather' || token.lemma === 'prefer');
  for (let i = 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.lower === 'instead' && tokens[i + 1]?.lower === 'of') return i;
    if (prefer < 0 || i <= prefer + 1) continue;
    if (token.lower === 'than') return i;
    if (
      token.lower === 'to' &&
      tokens[prefer]!.lemma === 'prefer' &&
      (tokens[i + 1]?.pos !== 'VERB' || tokens[i + 2]?.pos === 'NOUN')
    )
      return i;
  }
  return -1;
}

/** Words that open a sentence naming nothing as good as what follows: "nothing beats X". */
const NONE_BETTER = new Set(['nothing', 'nobody', 'nowhere']);
const BEATS = new Set(['beat', 'top', 'compare']);

/**
 * The index after which a sentence names what the speaker likes best, or −1: "nothing makes me
 * happier than X", "nothing recharges me like X", "nothing beats X". Its "nothing" is no denial.
 */
function bestAfter(tokens: readonly ParsedWord[]): number {
  const first = tokens.findIndex((token) => token.pos !== 'PUNCT');
  if (!NONE_BETTER.has(tokens[first]?.lower ?? '')) return -1;
  if (BEATS.has(tokens[first + 1]?.lemma ?? '')) return first + 1;
  for (let i = first + 2; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.pos === 'PUNCT') return -1;
    if (token.lower === 'than' || (token.lower === 'like' && token.pos !== 'VERB')) return i;
  }
  return -1;
}

/**
 * The speaker's stance on the words from `start` to `end`: +1 for, −1 against, 0 none. A
 * preference turned around gives the side of the turn ("rather X than Y"); otherwise the stance
 * word nearest to them speaks ("I like my routine and hate surprises": "like" for the routine).
 */
export function stanceOf(
  tokens: readonly ParsedWord[],
  outside: (i: number) => boolean,
): (start: number, end: number) => number {
  const best = bestAfter(tokens);
  if (best > 0) return (start) => (start > best ? 1 : 0);
  const turn = turnOf(tokens);
  // "I'd rather lose an argument than hurt anyone": what the speaker would rather lose, they are against.
  const lost = (start: number) => [1, 2].some((back) => LOSSES.has(tokens[start - back]?.lemma ?? ''));
  if (turn > 0) return (start) => (start < turn ? 1 : -1) * (lost(start) ? -1 : 1);
  const marks: Array<{ at: number; value: number }> = [];
  tokens.forEach((token, i) => {
    if (!outside(i)) return;
    let value =
      FOR.has(token.lemma) || FOR.has(token.lower)
        ? 1
        : AGAINST.has(token.lemma) || AGAINST.has(token.lower)
          ? -1
          : 0;
    if (token.lemma === 'like' && token.pos !== 'VERB') value = 0;
    for (const phrase of STANCE_PHRASES) {
      if (/^(need|want)/.test(phrase.words[0]!) && tokens[i + 1]?.lower === 'to') continue;
      if (matchAt(tokens, i, phrase.words) > i) value = phrase.value;
    }
    if (value !== 0)
      marks.push({ at: i, value: negatedAt(tokens, i) && !phraseNegated(tokens, i) ? -value : value });
  });
  const clause = clausesOf(tokens);
  return (start, end) => {
    let best = 0;
    let distance = Number.POSITIVE_INFINITY;
    for (const { at, value } of marks) {
      if (clause[at] !== clause[start] || verbBetween(tokens, at, start, end)) continue;
      const d = at < start ? start - at : at >= end ? at - end + 1 : 0;
      if (d < distance) [best, distance] = [value, d];
    }
    return best;
  };
}

/**
 * True when another verb stands between a stance word and the topic it would speak for: in "I
 * skipped the mixer and spent the evening by myself", "skipped" is about the mixer, not "by myself".
 */
function verbBetween(tokens: readonly ParsedWord[], at: number, start: number, end: number): boolean {
  const [from, to] = at < start ? [at + 1, start] : [end, at];
  for (let i = from; i < to; i++)
    if (tokens[i]!.pos === 'VERB' && !COPULAS.has(tokens[i]!.lemma)) return true;
  return false;
}

/** Verbs that join a topic to its stance ("a night in sounded better", "parties are fun"). */
const COPULAS = new Set(['be', 'sound', 'seem', 'feel', 'look', 'get', 'become']);

/** "can't stand", "not my thing", "wouldn't want it any other way": the negation is part of the phrase. */
const phraseNegated = (tokens: readonly ParsedWord[], i: number) =>
  tokens[i]!.lower === 'not' || tokens[i + 1]?.lower === 'not';
