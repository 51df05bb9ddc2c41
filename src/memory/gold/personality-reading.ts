/**
 * What a reader can infer about a user's Big Five from several of their recent messages, read
 * with an English parser and its sentiment lexicon (src/util/nlp.ts) plus a few general cue
 * words of its own — never the phrase banks that write the offline style
 * (src/synth/offline/phrases.ts). Each message shows a trait high, low or not at all; a trait
 * needs at least two messages of the window on one side before it is scored, four (and none
 * against) for an extreme, and is otherwise 3: "not enough evidence" (PersonaVLM §3.2: integer
 * scores, 3 = no evidence).
 */
import { BIG_FIVE_TRAITS, type BigFive, type BigFiveTrait } from '../../schemas/common.js';
import { type ReadSentence, readSentences } from '../../util/nlp.js';

/** Messages a target reads: the latest and the user's previous ones, up to this many. */
export const PERSONALITY_WINDOW = 6;
/** Messages on one side (net of the other) for a score of 4 or 2, and for 5 or 1. */
const GRADED = 2;
const EXTREME = 4;

/** A sentence about the speaker's own state ("I am …", "I feel …", "it makes me …"). */
const SELF_STATE =
  /\b(?:i am|i'm|i feel|i felt|i have been|i've been|i was|i keep|i get|makes me|making me|has me|keeps me)\b/i;
const POLITE = /\b(?:please|thank(?:s| you)|appreciate|grateful|sorry)\b/i;
const IMPATIENT =
  /\b(?:hate|stop|spare me|do not bother|don't bother|just give me|get to the point|vague)\b/i;
const NOVELTY =
  /\b(?:something (?:new|different)|new things|new approach|completely different|curious|wonder(?:ing)?|experiment(?:ing)?|explor(?:e|ing)|adventur\w*)\b/i;
const ROUTINE = /\b(?:usual|familiar|stick with|same as always|what I know)\b/i;
const ORDER = /\b(?:schedule|checklist|calendar|organi[sz]ed?|prepared|ahead of time|on time|tidy)\b/i;
const DISORDER = /\b(?:last minute|forget(?:ting)?|not really planned|messy|disorgani[sz]ed|scattered)\b/i;

/** One message's side per trait: 1 high, −1 low, 0 nothing shown. */
export type MessageReading = Record<BigFiveTrait, 1 | -1 | 0>;

const side = (high: boolean, low: boolean): 1 | -1 | 0 => (high === low ? 0 : high ? 1 : -1);

function readSentenceSet(sentences: readonly ReadSentence[]): MessageReading {
  const self = sentences.filter((s) => SELF_STATE.test(s.text));
  const text = sentences.map((s) => s.text).join(' ');
  const words = sentences.reduce((n, s) => n + s.pos.filter((tag) => tag !== 'PUNCT').length, 0);
  const excited = sentences.some((s) => s.text.trim().endsWith('!') && s.sentiment >= 0);
  const down = self.some((s) => s.sentiment <= -0.25);
  const calm = self.some((s) => s.sentiment > 0 && /\b(?:calm|relaxed|at ease|no stress)\b/i.test(s.text));
  return {
    extraversion: side(excited, words <= 6 && !excited),
    neuroticism: side(down, calm && !down),
    agreeableness: side(POLITE.test(text), IMPATIENT.test(text) && !POLITE.test(text)),
    openness: side(NOVELTY.test(text), ROUTINE.test(text)),
    conscientiousness: side(ORDER.test(text), DISORDER.test(text)),
  };
}

/**
 * Reads one message.
 *
 * @example readMessage('I feel stressed just thinking about it.').neuroticism // 1
 */
export function readMessage(text: string): MessageReading {
  let reading = readings.get(text);
  if (reading === undefined) {
    reading = readSentenceSet(readSentences(text));
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
 * @example inferPersonality(['I am so anxious!', 'I keep second-guessing myself.']).neuroticism.score // 4
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
