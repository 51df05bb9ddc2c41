/**
 * What a reader can infer about a user's Big Five from several of their recent messages. A
 * message is read sentence by sentence with an English parser (wink-nlp: personality-parse.ts): a
 * sentence about the speaker ("I", "me", "my") shows a trait when it uses a word of the IPIP-NEO
 * item pool keyed to it (src/memory/gold/personality-lexicon.ts; a negated word shows nothing),
 * and shows neuroticism when the speaker says they are, feel or get something AFINN-165
 * rates negative ("I am nervous", "I feel stressed"; "I am sorry for …" apologises, no mood). A
 * word in a clause of condition or time shows nothing: "ramen, but only when stressed", "before I
 * forget" say when, not who. The situations a sentence tells of are read too: a topic with the
 * speaker's stance on it, an act they do, a marker adjective said of them (personality-frames.ts).
 * Where all of these read nothing, the learned reader (personality-classifier.ts) may read one
 * trait side of the message. Punctuation and length are never evidence.
 * No lexicon here is the phrase banks that write the offline style (src/synth/offline/). A trait
 * needs at least two messages of the window on one side (net) before it is scored, four (and none
 * against) for an extreme, and is otherwise 3: "not enough evidence" (PersonaVLM §3.2: integer
 * scores, 3 = no evidence).
 */
import { createRequire } from 'node:module';
import { BIG_FIVE_TRAITS, type BigFive, type BigFiveTrait } from '../../schemas/common.js';
import { modelVote } from './personality-classifier.js';
import { frameTriggers } from './personality-frame-lexicon.js';
import { frameVotes, speakerDoes, subjectDropped, wishedAt } from './personality-frames.js';
import { cueStem, personalityCues } from './personality-lexicon.js';
import { type ParsedWord, parseSentences } from './personality-parse.js';
import type { MessageReading, Vote } from './types.js';

export type { MessageReading, Vote } from './types.js';

/** Messages a target reads: the latest and the user's previous ones, up to this many. */
export const PERSONALITY_WINDOW = 6;
/** Messages on one side (net of the other) for a score of 4 or 2, and for 5 or 1. */
const GRADED = 2;
const EXTREME = 4;

const SELF = new Set(['i', 'me', 'my', 'myself']);
/** Verbs that put a state on their subject: "I am / feel / get / become nervous". */
const STATE_VERBS = new Set(['be', 'feel', 'get', 'become', 'seem']);
const CONTENT = new Set(['NOUN', 'VERB', 'ADJ', 'ADV', 'PROPN']);
/** States of the body, not of mood: "I am so tired" says nothing of neuroticism. */
const BODILY = new Set(
  `tired sick ill hurt exhausted sore hungry injured pain drained dead cold shattered knackered wiped sleepy worn
  jetlagged achy allergic stuffed bloated dizzy nauseous sunburnt poorly`.split(/\s+/),
);
/** AFINN-165 word valences (−5…5), as the `sentiment` package ships them. */
const AFINN = createRequire(import.meta.url)('sentiment/languages/en/labels.json') as Record<string, number>;
const valence = (word: string): number => AFINN[word] ?? 0;

/**
 * The verb that puts the state at token `i` on the speaker ("I [aux…] am/feel/get [adverb] <i>"),
 * or null when the state is not said of the speaker.
 */
function selfStateVerb(tokens: readonly ParsedWord[], i: number): string | null {
  let at = i - 1;
  while (tokens[at]?.pos === 'ADV' || tokens[at]?.pos === 'PART') at--;
  if (tokens[at]?.lower === 'me' && tokens[at - 1]?.lemma === 'make') return 'make';
  const verb = tokens[at]?.lemma ?? '';
  if (!STATE_VERBS.has(verb)) return null;
  at--;
  while (at >= 0 && (tokens[at]?.pos === 'AUX' || tokens[at]?.pos === 'PART' || tokens[at]?.pos === 'ADV'))
    at--;
  return tokens[at]?.lower === 'i' ? verb : null;
}

/** Words that open a clause of condition or time: what follows is a circumstance, not the speaker. */
const CONDITIONS = new Set(['when', 'whenever', 'if', 'unless']);
/** Words that open a clause of time only before a clause ("before I forget"), not a noun ("before exams"). */
const CLAUSE_TIMES = new Set(['before', 'until', 'till']);
const CLAUSE_STARTS = new Set(['PRON', 'VERB', 'AUX', 'ADJ']);

/**
 * Per token: inside a clause of condition or time ("only when stressed", "if I feel anxious",
 * "before I forget", "in case I forget"), up to the next punctuation. Such a clause says when
 * something holds, not what the speaker is like: "I love ramen when stressed" says nothing of how
 * often they are stressed, and "before I forget" is no confession of forgetfulness.
 */
function conditionScope(tokens: readonly ParsedWord[]): boolean[] {
  const inside: boolean[] = [];
  let open = false;
  // A clause opening the sentence ends where the speaker starts the main one, comma or not:
  // "when my sister was rude to me I forgave her", "if I feel anxious I eat chocolate".
  let first = false;
  let verbSeen = false;
  tokens.forEach((token, i) => {
    if (token.pos === 'PUNCT') open = false;
    else if (open && first && verbSeen && token.lower === 'i') open = false;
    else {
      const next = tokens[i + 1]?.pos ?? '';
      const opens =
        CONDITIONS.has(token.lower) ||
        (CLAUSE_TIMES.has(token.lower) && CLAUSE_STARTS.has(next)) ||
        (token.lower === 'case' && tokens[i - 1]?.lower === 'in');
      if (opens) [open, first, verbSeen] = [true, inside.every((was) => !was) && i <= 1, false];
      else if (open && (token.pos === 'VERB' || token.pos === 'AUX')) verbSeen = true;
    }
    inside.push(open);
  });
  return inside;
}

/**
 * The votes of one parsed sentence: nothing unless the sentence is about the speaker.
 *
 * @example sentenceVotes(parseSentences('I worry about everything.')[0]!) // [{ trait: 'neuroticism', side: 1, word: 'worry' }]
 */
export function sentenceVotes(tokens: readonly ParsedWord[]): Vote[] {
  // A question asks ("how can I be less anxious?"); it tells nothing of the speaker.
  if (tokens.some((token) => token.lower === '?')) return [];
  if (!tokens.some((token) => SELF.has(token.lower)))
    return subjectDropped(tokens) ? frameVotes(tokens, conditionScope(tokens)) : [];
  const cues = personalityCues();
  const condition = conditionScope(tokens);
  const votes: Vote[] = [];
  tokens.forEach((token, i) => {
    if (!CONTENT.has(token.pos) || condition[i]) return;
    const stem = cueStem(token.lemma);
    // A stem names its word, not a longer one it happens to start ("busi" is not "business").
    // A negated cue shows nothing: "do not waste my time" is no sign of order, "no rush" none of calm.
    const cue = token.lemma.length <= stem.length + 3 ? cues.get(stem) : undefined;
    // A cue is the speaker's when they are its subject: "my mum worries about everything" is hers.
    // A cue wished for is not had: "I'd love to be someone who stays calm", "I want to be tidier".
    if (cue !== undefined && !token.negated && speakerDoes(tokens, i) && !wishedAt(tokens, i))
      votes.push({ ...cue, word: token.lower });
    // "I am / feel / get <negative state>", "it made me <state>": a self-reported negative feeling;
    // denied ("I wasn't bothered", "it didn't make me nervous") it shows calm. "I am sorry for the
    // questions" apologises (a social act, not a mood); "I feel sorry" is one. A state of the body
    // ("tired", "sick", "hurt") is no mood.
    if (token.pos !== 'ADJ' && token.pos !== 'VERB') return;
    const verb = selfStateVerb(tokens, i);
    if (verb === null || valence(token.lower) >= 0 || BODILY.has(token.lower)) return;
    if (token.lower === 'sorry' && verb === 'be') return;
    votes.push({ trait: 'neuroticism', side: token.negated ? -1 : 1, word: token.lower });
  });
  return [...votes, ...frameVotes(tokens, condition)];
}

/** The votes of one sentence about the speaker, added to `net`. */
function readSentence(tokens: readonly ParsedWord[], net: Record<BigFiveTrait, number>): void {
  for (const vote of sentenceVotes(tokens)) net[vote.trait] += vote.side;
}

/** Words that put the next one out of play ("do not waste", "no rush"): a cue after them shows nothing. */
const NEGATORS = new Set(['not', 'no', 'never', 't']);
/** Forms of the verbs that put a state on the speaker ("I am / feel / get …"). */
const STATE_FORM =
  /\b(?:i'm|am|was|been|feel|feeling|felt|get|getting|got|become|became|seem|seemed|make|makes|made)\b/;

/**
 * True when the text could show a trait, so it is worth parsing: a cue word not right after a
 * negator, or a word AFINN rates negative in a text that says "I am / feel / get …".
 */
function mayShow(text: string): boolean {
  const lower = text.toLowerCase();
  const words = lower.match(/[a-z]+/g) ?? [];
  const triggers = frameTriggers();
  // A chat sentence may leave out its "I" ("spent the weekend hosting…"): the frames read those.
  if (!words.some((word) => SELF.has(word))) return words.some((word) => triggers.has(cueStem(word)));
  const cues = personalityCues();
  const states = STATE_FORM.test(lower);
  return words.some((word, i) => {
    if (word.length <= 2) return false;
    const stem = cueStem(word);
    return (
      (states && valence(word) < 0) ||
      triggers.has(stem) ||
      (!NEGATORS.has(words[i - 1] ?? '') && cues.has(stem))
    );
  });
}

function readText(text: string): MessageReading {
  const net = { openness: 0, conscientiousness: 0, extraversion: 0, agreeableness: 0, neuroticism: 0 };
  if (mayShow(text))
    for (const sentence of parseSentences(text.replace(/<image>/g, ' '))) readSentence(sentence, net);
  const out = {} as MessageReading;
  for (const trait of BIG_FIVE_TRAITS) out[trait] = net[trait] > 0 ? 1 : net[trait] < 0 ? -1 : 0;
  // What the rules have no entry for, the learned reader may read: one trait side, where the rules read none.
  const learned = modelVote(text);
  if (learned !== null && out[learned.trait] === 0) out[learned.trait] = learned.side;
  return out;
}

/**
 * Reads one message.
 *
 * @example readMessage('I get stressed out before every exam.').neuroticism // 1
 */
export function readMessage(text: string): MessageReading {
  let reading = readings.get(text);
  if (reading === undefined) {
    reading = readText(text);
    if (readings.size >= READING_CACHE) readings.clear();
    readings.set(text, reading);
  }
  return reading;
}

/** Each message is read once for the windows it sits in (a window slides over a user's turns). */
const READING_CACHE = 4096;
const readings = new Map<string, MessageReading>();

/** What the window shows for one trait: messages high and low, and the score they support. */
export interface TraitInference {
  high: number;
  low: number;
  /** 1–5; 3 when the window holds not enough evidence (fewer than two messages net on a side). */
  score: number;
}

/** The score a count of messages supports: 3 below two net, 4/2 from two, 5/1 from four with none against. */
export function scoreFromCounts(high: number, low: number): number {
  const net = high - low;
  if (Math.abs(net) < GRADED) return 3;
  const extreme = Math.abs(net) >= EXTREME && Math.min(high, low) === 0;
  return net > 0 ? (extreme ? 5 : 4) : extreme ? 1 : 2;
}

/**
 * Infers each trait from the user's recent messages (oldest first; the last is the latest):
 * the window's last {@link PERSONALITY_WINDOW} messages are read.
 *
 * @example inferPersonality(['I am so anxious.', 'I worry about it all week.']).neuroticism.score // 4
 */
export function inferPersonality(
  messages: readonly string[],
  read: (text: string) => MessageReading = readMessage,
): Record<BigFiveTrait, TraitInference> {
  const window = messages.slice(-PERSONALITY_WINDOW).map(read);
  const out = {} as Record<BigFiveTrait, TraitInference>;
  for (const trait of BIG_FIVE_TRAITS) {
    const high = window.filter((m) => m[trait] === 1).length;
    const low = window.filter((m) => m[trait] === -1).length;
    out[trait] = { high, low, score: scoreFromCounts(high, low) };
  }
  return out;
}

/** The five scores of an inference. */
export function scoresOf(inference: Record<BigFiveTrait, TraitInference>): BigFive {
  const out = {} as BigFive;
  for (const trait of BIG_FIVE_TRAITS) out[trait] = inference[trait].score;
  return out;
}

/**
 * The traits of a target its messages do not support: each score must be the one the window's
 * messages support (3 where they give not enough evidence); with `sideOnly`, on the same side of
 * 3. Empty when the target holds.
 *
 * @example unsupportedScores(['Thanks a lot!'], { ...neutral, agreeableness: 5 }) // ['agreeableness 5: …']
 */
export function unsupportedScores(
  messages: readonly string[],
  target: BigFive,
  options: { sideOnly?: boolean; read?: (text: string) => MessageReading } = {},
): string[] {
  const inference = inferPersonality(messages, options.read);
  const problems: string[] = [];
  for (const trait of BIG_FIVE_TRAITS) {
    const { high, low, score } = inference[trait];
    if (Math.round(target[trait]) === score) continue;
    // A teacher target may grade differently (4 for 5) but not read another side or invent evidence.
    if (options.sideOnly === true && Math.sign(target[trait] - 3) === Math.sign(score - 3)) continue;
    const shown =
      score === 3
        ? `not enough evidence (${high} high, ${low} low of ${Math.min(messages.length, PERSONALITY_WINDOW)} messages)`
        : `the messages support ${score} (${high} high, ${low} low)`;
    problems.push(`${trait} ${target[trait]}: ${shown}`);
  }
  return problems;
}
