/**
 * The frame reader: what a sentence about the speaker shows through the situations it tells of
 * (personality-frame-lexicon.ts), beyond the questionnaire words personality-lexicon.ts reads.
 *
 * - An act votes its side when the speaker does it: "I" is its subject ("I kept to myself", "I
 *   panicked"), or it names the speaker ("nothing rattles me"). An act under a negation ("not",
 *   "never", "rarely", "hardly", "nothing") votes the other side when its entry flips ("I didn't
 *   panic", "nothing rattles me") and nothing otherwise. An act wished for ("I want to get
 *   organised", "how do I stop panicking") says nothing of who the speaker is.
 * - A topic votes with the speaker's stance on it: for it ("I loved the party", "I need people
 *   around me", "I'd rather stay in") its side, against it ("crowds drain me", "I skipped the
 *   party", "I don't enjoy parties") the other side, no stance nothing ("I went to a party").
 * - A marker adjective said of the speaker ("I'm a bit of a loner", "I'm not very organised")
 *   votes its side, or the other side when negated.
 *
 * Questions say nothing ("can you help me plan a party?"), nor do clauses of condition or time
 * (the caller passes their scope), nor sentences about someone else ("my brother loves parties",
 * "she helped me out").
 */

import { framesStartingWith } from './personality-frame-lexicon.js';
import type { ParsedWord } from './personality-parse.js';
import type { Frame, Vote } from './types.js';

const SPEAKER = new Set(['i', 'me', 'myself']);
const OTHERS = new Set(['he', 'she', 'they', 'his', 'her', 'their', 'them', 'him']);
const OTHER_SUBJECTS = new Set(['you', 'he', 'she', 'we', 'they', 'it', 'this', 'that', 'there']);
const STOPS = new Set(['.', '!', '?', ';', ':']);
/** Words that put what follows out of play or turn it around. */
const NEGATORS = new Set([
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
/** Words that make what follows a wish, a duty or a plan, not a habit: "I want to get organised". */
const WISHES = new Set([
  'want',
  'wish',
  'hope',
  'should',
  'must',
  'try',
  'need',
  'plan',
  'learn',
  'how',
  'gonna',
  'going',
  'have',
  'would',
]);
/** Verbs that put a marker adjective on the speaker: "I am / feel / seem / get quiet". */
const LINKS = new Set(['be', 'feel', 'seem', 'become', 'get', 'stay']);
/** Words that may stand between the link and the marker: "I'm a bit of a loner", "I'm not very organised". */
const GAP = new Set([
  'a',
  'an',
  'the',
  'bit',
  'of',
  'kind',
  'sort',
  'type',
  'such',
  'total',
  'complete',
  'real',
  'natural',
  'born',
  'big',
  'huge',
  'bit',
]);
const GAP_POS = new Set(['ADV', 'PART', 'DET']);

/** Stance words: for (+) or against (−) what the sentence is about. */
const FOR = new Set(
  `love adore enjoy like prefer crave miss alive blast fun great brilliant amazing awesome best happiest happy
  wonderful fantastic suit thrive buzz energise energize energised energized favourite favorite exciting thrill
  recharge peaceful bliss heaven rather better fine excited excite`.split(/\s+/),
);
const AGAINST = new Set(
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

/** The words of a sentence the frames are matched on: hyphens dropped ("laid-back" is "laid back"). */
const wordsOf = (tokens: readonly ParsedWord[]) => tokens.filter((token) => token.lower !== '-');

/** True when `token` is the word `spec` names ("a|b", a word or its lemma). */
function meets(spec: string, token: ParsedWord, lemma: boolean): boolean {
  return spec.split('|').some((word) => token.lower === word || (lemma && token.lemma === word));
}

/** The index after a match of `words` at `at`, or −1. */
export function matchAt(
  tokens: readonly ParsedWord[],
  at: number,
  words: readonly string[],
  lemma = true,
): number {
  let i = at;
  for (const spec of words) {
    const token = tokens[i];
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

/**
 * True when a negator stands in the three words before `at` (the parser's negation runs to the
 * next punctuation mark: in "where I can't read the signs is my idea of heaven" it takes "heaven").
 */
function negatedAt(tokens: readonly ParsedWord[], at: number): boolean {
  for (let j = at - 1; j >= Math.max(0, at - 3); j--) {
    const token = tokens[j]!;
    if (token.pos === 'PUNCT') return false;
    if (NEGATORS.has(token.lower) || NEGATORS.has(token.lemma)) return true;
  }
  return false;
}

/**
 * True when a wish word stands before `at` in its clause: "I want to get organised", "I'd love a
 * checklist", "how do I stop panicking".
 */
function wishedAt(tokens: readonly ParsedWord[], at: number): boolean {
  for (let j = at - 1; j >= 0; j--) {
    const token = tokens[j]!;
    if (token.pos === 'PUNCT' || CLAUSE_BREAKS.has(token.lower)) return false;
    if (!WISHES.has(token.lower) && !WISHES.has(token.lemma)) continue;
    // "I have to", "I'm going to": a duty or a plan; "I have done", "I'm going out": no wish.
    return token.lemma === 'have' || token.lower === 'going' ? tokens[j + 1]?.lower === 'to' : true;
  }
  return false;
}

/** True when a word against stands before `at` in its clause: "I can't stand leaving things till the last minute". */
function rejectedAt(tokens: readonly ParsedWord[], at: number): boolean {
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

/** True when the speaker does what starts at `at`: "I" is the nearest subject to its left. */
export function speakerDoes(tokens: readonly ParsedWord[], at: number): boolean {
  const first = tokens[at]!;
  let j = at - 1;
  while (j >= 0 && (tokens[j]!.pos === 'ADV' || tokens[j]!.pos === 'AUX' || tokens[j]!.pos === 'PART')) j--;
  // "my boss panics": a noun right before a verb is its subject ("I spent Saturday helping" is not).
  const before = tokens[j];
  if (
    first.pos === 'VERB' &&
    !first.lower.endsWith('ing') &&
    (before?.pos === 'NOUN' || before?.pos === 'PROPN')
  )
    return false;
  for (; j >= 0; j--) {
    const token = tokens[j]!;
    if (token.lower === 'i' || token.lower === 'me' || token.lower === 'myself') return true;
    if (STOPS.has(token.lower) || OTHER_SUBJECTS.has(token.lower) || OTHERS.has(token.lower)) return false;
  }
  return subjectDropped(tokens);
}

/** Words a chat sentence may open with before its verb: "honestly spent the day…". */
const OPENERS = new Set(['ADV', 'INTJ', 'CCONJ']);

/**
 * True when the sentence leaves out its subject, as chat does: it opens with a verb in the past
 * or in -ing ("spent saturday hosting…", "barely slept, lay awake…"). A verb in its base form
 * opens a request ("keep calm", "tell me"), not a report.
 */
export function subjectDropped(tokens: readonly ParsedWord[]): boolean {
  const first = tokens.find((token) => !OPENERS.has(token.pos));
  return first?.pos === 'VERB' && first.lower !== first.lemma;
}

/** True when the marker at `at` is said of the speaker: "I ['ve always] [be] [a bit of a] <marker>". */
function saidOfSpeaker(tokens: readonly ParsedWord[], at: number): boolean {
  let j = at - 1;
  while (j >= 0 && (GAP.has(tokens[j]!.lower) || GAP_POS.has(tokens[j]!.pos))) j--;
  const link = tokens[j];
  if (link !== undefined && (link.lower === 'myself' || link.lower === 'me')) return true;
  if (link === undefined || !LINKS.has(link.lemma)) return false;
  j--;
  while (j >= 0 && (tokens[j]!.pos === 'AUX' || tokens[j]!.pos === 'ADV' || tokens[j]!.pos === 'PART')) j--;
  return tokens[j]?.lower === 'i';
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

/**
 * The speaker's stance on the words from `start` to `end`: +1 for, −1 against, 0 none. A
 * preference turned around gives the side of the turn ("rather X than Y"); otherwise the stance
 * word nearest to them speaks ("I like my routine and hate surprises": "like" for the routine).
 */
function stanceOf(
  tokens: readonly ParsedWord[],
  outside: (i: number) => boolean,
): (start: number, end: number) => number {
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
      marks.push({ at: i, value: negatedAt(tokens, i) && !phraseNegated(value, tokens, i) ? -value : value });
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

/** Words that start a new clause, whose stance is its own: "I turned it down; a night in sounded better". */
const CLAUSE_BREAKS = new Set([
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
function clausesOf(tokens: readonly ParsedWord[]): number[] {
  let clause = 0;
  return tokens.map((token) => (token.pos === 'PUNCT' || CLAUSE_BREAKS.has(token.lower) ? ++clause : clause));
}

/** "can't stand", "not my thing", "wouldn't want it any other way": the negation is part of the phrase. */
const phraseNegated = (_value: number, tokens: readonly ParsedWord[], i: number) =>
  tokens[i]!.lower === 'not' || tokens[i + 1]?.lower === 'not';

/**
 * The frame votes of one sentence. `condition[i]` is true inside a clause of condition or time.
 *
 * @example frameVotes(parseSentences('I kept to myself at the wedding.')[0]!, []) // [{ trait: 'extraversion', side: -1, word: 'kept to myself' }]
 */
export function frameVotes(sentence: readonly ParsedWord[], condition: readonly boolean[]): Vote[] {
  if (sentence.some((token) => token.lower === '?')) return [];
  const dropped = subjectDropped(sentence);
  if (!dropped && !sentence.some((token) => SPEAKER.has(token.lower) || token.lower === 'my')) return [];
  const inScope = sentence.map((token, i) => condition[i] !== true && token.lower !== '-');
  const tokens = wordsOf(sentence);
  const free = inScope.filter((_, i) => sentence[i]!.lower !== '-');
  const aboutOthers = tokens.some((token) => OTHERS.has(token.lower));
  const spans: Array<{ frame: Frame; start: number; end: number }> = [];
  tokens.forEach((token, i) => {
    if (!free[i]) return;
    for (const frame of framesStartingWith(token.lower, token.lemma)) {
      const end = matchAt(tokens, i, frame.words, frame.kind !== 'trait');
      if (end > i) spans.push({ frame, start: i, end });
    }
  });
  const taken = new Set<number>();
  for (const span of spans) for (let i = span.start; i < span.end; i++) taken.add(i);
  const stance = stanceOf(tokens, (i) => free[i] === true && !taken.has(i));
  const votes: Vote[] = [];
  for (const { frame, start, end } of spans) {
    const word = tokens
      .slice(start, end)
      .map((token) => token.lower)
      .join(' ');
    const names = tokens
      .slice(Math.max(0, start - 1), end)
      .some((token) => SPEAKER.has(token.lower) || token.lower === 'my');
    const negated = negatedAt(tokens, start);
    if (frame.kind === 'topic') {
      // A topic said as a denied verb turns around: "my taste hasn't changed and I'm happy with that".
      const denied = tokens[start]!.pos === 'VERB' && tokens[start - 1]?.lemma === 'not' ? -1 : 1;
      const side = stance(start, end) * denied;
      if (side === 0 || aboutOthers || !(dropped || tokens.some((token) => SPEAKER.has(token.lower))))
        continue;
      votes.push({ trait: frame.trait, side: (frame.side * side) as 1 | -1, word });
    } else if (frame.kind === 'trait') {
      if (!saidOfSpeaker(tokens, start) || wishedAt(tokens, start)) continue;
      if (tokens[end]?.lower === 'to' || tokens[end]?.lower === 'on') continue;
      votes.push({ trait: frame.trait, side: negated ? (-frame.side as 1 | -1) : frame.side, word });
    } else {
      if (wishedAt(tokens, start) || rejectedAt(tokens, start) || !(names || speakerDoes(tokens, start)))
        continue;
      if (negated && frame.flip !== true) continue;
      votes.push({ trait: frame.trait, side: negated ? (-frame.side as 1 | -1) : frame.side, word });
    }
  }
  return votes;
}
