/**
 * What one clause says: a liking score from the word classes, whether the stance ended, lies in
 * the past or continues. A negator shortly before a cue flips it ("I do not really enjoy"); the
 * tokens of an item mention never count as cues ("stand-up comedy" is not "stand").
 */
import { CUES, type Cue, LAPSE_MARKERS, PAST_MARKERS } from './lexicon.js';
import { sameWord } from './mentions.js';
import type { ClauseStance, Token } from './types.js';

const byFirst = new Map<string, Cue[]>();
for (const cue of CUES) {
  const first = cue.words[0]!;
  byFirst.set(first, [...(byFirst.get(first) ?? []), cue]);
}

const NEGATORS = new Set(['not', "n't", 'never', 'no', 'hardly', 'without', 'nobody', 'neither', 'nor']);
/** Words that end a negation's reach inside a clause ("… can't see the sand, where … is my nightmare"). */
const SCOPE_ENDS = new Set([
  'where',
  'who',
  'which',
  'when',
  'and',
  'but',
  'because',
  'that',
  'so',
  'whenever',
]);
const PERCEPTION = new Set(['feel', 'taste', 'look', 'sound', 'smell', 'seem']);
const COMPARATIVE = new Set(['rather', 'prefer', 'happier', 'instead', 'better']);

/** Inflected forms a cue may be listed under ("loving" → love, "ruins" → ruin). */
function stems(lower: string): string[] {
  const out: string[] = [];
  for (const [suffix, add] of [
    ['ing', ''],
    ['ing', 'e'],
    ['ed', ''],
    ['ed', 'e'],
    ['es', ''],
    ['s', ''],
    ['d', ''],
  ] as const)
    if (lower.endsWith(suffix) && lower.length > suffix.length + 2)
      out.push(lower.slice(0, -suffix.length) + add);
  return out;
}

/**
 * A comparison's sign for the item: preferred when it follows ("I'd rather have X"), comes
 * before "than" ("X is better than coffee") or the word is "instead" ("I reach for X instead");
 * dispreferred when the clause does not name it ("…, I'd rather stay home").
 */
function comparative(tokens: readonly Token[], i: number, item: readonly number[], value: number): number {
  const size = Math.abs(value) || 1.5;
  if (item.length === 0) return -size;
  if (tokens[i]!.lower === 'instead' || item.some((at) => at > i) || tokens[i + 1]?.lower === 'than')
    return size;
  return -size;
}

/** True when the word at `i` is only tried ("tried to get into"). */
function attempted(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= 1 && j >= i - 3; j--)
    if (tokens[j]!.lower === 'to' && tokens[j - 1]!.lemma === 'try') return true;
  return false;
}

/** True when a negator reaches position `i` (up to six tokens back, within the clause). */
function negatedAt(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= 0 && j >= i - 6; j--) {
    const token = tokens[j]!;
    if (SCOPE_ENDS.has(token.lower) || token.pos === 'PUNCT') return false;
    if (NEGATORS.has(token.lower) || NEGATORS.has(token.lemma)) return true;
  }
  return false;
}

/** The last position of `cue` matched from `start` (up to two tokens between words), or -1. */
function matchCue(tokens: readonly Token[], start: number, cue: Cue, skip: ReadonlySet<number>): number {
  const first = tokens[start]!;
  if (cue.pos !== undefined && !cue.pos.includes(first.pos)) return -1;
  // "tastes like soap", "a mask like": not the verb.
  if (
    cue.words[0] === 'like' &&
    start > 0 &&
    (PERCEPTION.has(tokens[start - 1]!.lemma) || ['NOUN', 'ADJ'].includes(tokens[start - 1]!.pos))
  )
    return -1;
  let at = start;
  for (const word of cue.words.slice(1)) {
    let found = -1;
    for (let j = at + 1; j <= at + 3 && j < tokens.length; j++) {
      if (tokens[j]!.pos === 'PUNCT' && tokens[j]!.lower !== '-') break;
      if (!skip.has(j) && sameWord(tokens[j]!, word)) {
        found = j;
        break;
      }
    }
    if (found < 0) return -1;
    at = found;
  }
  return at;
}

const hasSequence = (tokens: readonly Token[], words: readonly string[]) =>
  tokens.some((_, i) =>
    words.every((word, j) => tokens[i + j] !== undefined && sameWord(tokens[i + j]!, word)),
  );

/**
 * Reads one clause. `skip` holds positions (in `tokens`) of item words.
 *
 * @example readClause(parse("I don't enjoy it any more")[0]!, new Set()) // { score: -2, ended: true, … }
 */
export function readClause(tokens: readonly Token[], skip: ReadonlySet<number>): ClauseStance {
  let score = 0;
  let ended = false;
  let still = false;
  let hits = 0;
  const used = new Set<number>();
  const item = [...skip];
  for (let i = 0; i < tokens.length; i++) {
    if (skip.has(i) || used.has(i)) continue;
    const token = tokens[i]!;
    const seen = new Set<Cue>();
    const candidates = [token.lower, token.lemma, ...stems(token.lower)]
      .flatMap((form) => byFirst.get(form) ?? [])
      .filter((cue) => !seen.has(cue) && seen.add(cue));
    // Longest cue first: "no longer" before "no", "can not get enough" before "can".
    candidates.sort((a, b) => b.words.length - a.words.length);
    for (const cue of candidates) {
      const end = matchCue(tokens, i, cue, skip);
      if (end < 0) continue;
      for (let j = i; j <= end; j++) used.add(j);
      let value = cue.score;
      // "I'd rather have X" prefers the item; "…, I'd rather stay home" prefers something else.
      if (COMPARATIVE.has(token.lemma) || COMPARATIVE.has(token.lower))
        value = comparative(tokens, i, item, value);
      // "I've tried to get into jazz": an attempt at liking says nothing of the outcome ("I try to avoid" does).
      if (value > 0 && attempted(tokens, i)) value = 0;
      const flip = !cue.fixed && negatedAt(tokens, i) ? -1 : 1;
      score += value * flip;
      if (value !== 0) hits++;
      ended ||= cue.ended === true;
      still ||= cue.still === true;
      break;
    }
    if (!used.has(i) && COMPARATIVE.has(token.lower)) {
      score += comparative(tokens, i, item, 1.5);
      hits++;
    }
    // "way too heavy", "too much effort": an excess is a complaint.
    const next = tokens[i + 1];
    if (
      token.lower === 'too' &&
      next !== undefined &&
      ['ADJ', 'ADV', 'VERB'].includes(next.pos) &&
      !used.has(i + 1)
    ) {
      score += negatedAt(tokens, i) ? 1 : -1.5;
      hits++;
    }
    // "no hotpot please", "no more X", "it's never dim sum": refusing the item.
    if (
      (token.lower === 'no' || token.lower === 'never' || token.lower === 'not') &&
      (skip.has(i + 1) || (['more', 'a', 'the'].includes(tokens[i + 1]?.lower ?? '') && skip.has(i + 2)))
    ) {
      score -= 1.5;
      hits++;
    }
    // "I keep picking X", "I keep coming back to it": a habit.
    if (token.lemma === 'keep' && next !== undefined && next.pos === 'VERB' && next.lower.endsWith('ing')) {
      score += negatedAt(tokens, i) ? -1 : 1;
      hits++;
    }
    // "it is durian for me now", "Friday nights are sushi nights for me": the user's pick.
    if (
      token.lower === 'for' &&
      tokens[i + 1]?.lower === 'me' &&
      skip.has(i - 1) &&
      tokens.slice(Math.max(0, i - 5), i).some((t) => t.lemma === 'be')
    ) {
      score += 1;
      hits++;
    }
    // "now it's all bubble tea", "these days it is all miso": the item fills the user's days.
    if (
      token.lower === 'all' &&
      skip.has(i + 1) &&
      tokens.slice(Math.max(0, i - 2), i).some((t) => t.lemma === 'be')
    ) {
      score += 1.5;
      hits++;
    }
    // "a dog person", "a cat person".
    if (token.lemma === 'person' && skip.has(i - 1)) {
      score += 1.5;
      hits++;
    }
  }
  const negatedVerb = tokens.findIndex((t, i) => !skip.has(i) && t.pos === 'VERB' && negatedAt(tokens, i));
  if (negatedVerb >= 0 && tokens.some((t, i) => i > negatedVerb && LAPSE_MARKERS.includes(t.lemma))) {
    // A lapse: "I haven't touched it since spring", "not in months".
    ended = true;
    if (hits === 0) score -= 0.5;
  } else if (negatedVerb >= 0 && hits === 0) {
    // "I can't function without it" is a need; "I don't eat it", "I never order them" a mild dislike.
    score += tokens.some((t, i) => i > negatedVerb && t.lower === 'without') ? 1 : -0.75;
  }
  const past = !ended && PAST_MARKERS.some((marker) => hasSequence(tokens, marker));
  // "I used to insist on the aisle seat": a past habit is a past liking.
  if (past && score === 0) score = 0.5;
  return { score, ended, past, still };
}
