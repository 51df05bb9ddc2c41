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
import { CLAUSE_BREAKS, matchAt, negatedAt, OPENERS, wordsOf } from './personality-match.js';
import type { ParsedWord } from './personality-parse.js';
import { rejectedAt, stanceOf } from './personality-stance.js';
import type { Frame, Vote } from './types.js';

const SPEAKER = new Set(['i', 'me', 'myself']);
const OTHERS = new Set(['he', 'she', 'they', 'his', 'her', 'their', 'them', 'him']);
const OTHER_SUBJECTS = new Set(['you', 'he', 'she', 'we', 'they', 'it', 'this', 'that', 'there']);
/** Words that are a subject only before a verb ('it is', 'that made'), an object elsewhere. */
const OBJECTS = new Set(['it', 'this', 'that']);
const VERBAL = new Set(['VERB', 'AUX']);
const STOPS = new Set(['.', '!', '?', ';', ':']);
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
const LINKS = new Set(['be', 'feel', 'seem', 'become', 'stay']);
/** Nouns a marker may describe and still be said of the speaker: "I'm a calm person". */
const PERSON_NOUNS = new Set([
  'person',
  'type',
  'guy',
  'girl',
  'one',
  'soul',
  'man',
  'woman',
  'character',
  'sort',
  'kind',
]);
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

/**
 * True when a wish word stands before `at` in its clause: "I want to get organised", "I'd love a
 * checklist", "how do I stop panicking".
 */
export function wishedAt(tokens: readonly ParsedWord[], at: number): boolean {
  for (let j = at - 1; j >= 0; j--) {
    const token = tokens[j]!;
    if (token.pos === 'PUNCT' || CLAUSE_BREAKS.has(token.lower)) return false;
    if (!WISHES.has(token.lower) && !WISHES.has(token.lemma)) continue;
    // "I have to", "I'm going to": a duty or a plan; "I have done", "I'm going out": no wish.
    return token.lemma === 'have' || token.lower === 'going' ? tokens[j + 1]?.lower === 'to' : true;
  }
  return false;
}

/** Stance phrases that name the speaker by "my": "not really my thing", "made my day", "in my element". */
const MY_STANCES = new Set(['thing', 'day', 'element', 'mind']);

/** True when the sentence's stance is the speaker's: "I"/"me" in it, or "my thing", "my day". */
function speakerTakesStance(tokens: readonly ParsedWord[]): boolean {
  return tokens.some(
    (token, i) =>
      SPEAKER.has(token.lower) || (token.lower === 'my' && MY_STANCES.has(tokens[i + 1]?.lower ?? '')),
  );
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
    if (STOPS.has(token.lower) || OTHERS.has(token.lower)) return false;
    // "it made my day" has a subject; "sort it out at the last minute" an object.
    if (
      OTHER_SUBJECTS.has(token.lower) &&
      (!OBJECTS.has(token.lower) || VERBAL.has(tokens[j + 1]?.pos ?? ''))
    )
      return false;
  }
  return subjectDropped(tokens);
}

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

/**
 * The frame votes of one sentence. `condition[i]` is true inside a clause of condition or time.
 *
 * @example frameVotes(parseSentences('I kept to myself at the wedding.')[0]!, []) // [{ trait: 'extraversion', side: -1, word: 'kept to myself' }]
 */
export function frameVotes(sentence: readonly ParsedWord[], condition: readonly boolean[]): Vote[] {
  if (sentence.some((token) => token.lower === '?')) return [];
  const dropped = subjectDropped(sentence);
  if (!dropped && !sentence.some((token) => SPEAKER.has(token.lower) || token.lower === 'my')) return [];
  const tokens = wordsOf(sentence);
  // Outside a clause of condition or time, per word of `tokens` (hyphens dropped as wordsOf drops them).
  const free = sentence.flatMap((token, i) => (token.lower === '-' ? [] : [condition[i] !== true]));
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
    // The speaker right after the act is its owner ("lost my temper") or who feels it ("rattles me");
    // after a preposition they are its target, and the act somebody else's ("snapped at me").
    const after = tokens[end]?.lower ?? '';
    const aimedAt = tokens[end - 1]?.pos === 'ADP';
    const names =
      tokens
        .slice(Math.max(0, start - 1), end)
        .some((token) => SPEAKER.has(token.lower) || token.lower === 'my') ||
      after === 'my' ||
      (!aimedAt && SPEAKER.has(after));
    const negated = negatedAt(tokens, start);
    if (frame.kind === 'topic') {
      // A topic said as a denied verb turns around: "my taste hasn't changed and I'm happy with that".
      const denied = tokens[start]!.pos === 'VERB' && tokens[start - 1]?.lemma === 'not' ? -1 : 1;
      const side = stance(start, end) * denied;
      if (side === 0 || aboutOthers || !(dropped || speakerTakesStance(tokens))) continue;
      votes.push({ trait: frame.trait, side: (frame.side * side) as 1 | -1, word });
    } else if (frame.kind === 'trait') {
      if (!saidOfSpeaker(tokens, start) || wishedAt(tokens, start)) continue;
      if (tokens[end]?.lower === 'to' || tokens[end]?.lower === 'on') continue;
      // "a tidy minimalist home": the marker describes a thing, not the speaker.
      const next = tokens[end];
      if (next?.pos === 'NOUN' && !PERSON_NOUNS.has(next.lemma)) continue;
      votes.push({ trait: frame.trait, side: negated ? (-frame.side as 1 | -1) : frame.side, word });
    } else {
      if (wishedAt(tokens, start) || rejectedAt(tokens, start) || !(names || speakerDoes(tokens, start)))
        continue;
      if (negated && frame.flip !== true) continue;
      // A one-word act names a doing, not a kind of thing: "I budget every month", not "budget travel".
      if (frame.words.length === 1 && tokens[start]!.pos === 'NOUN' && tokens[start + 1]?.pos === 'NOUN')
        continue;
      votes.push({ trait: frame.trait, side: negated ? (-frame.side as 1 | -1) : frame.side, word });
    }
  }
  return votes;
}
