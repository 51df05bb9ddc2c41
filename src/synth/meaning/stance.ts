/**
 * What one clause says: a liking score from the word classes (a negation scope flips a cue),
 * whether the stance ended, lies in the past or continues. Tokens of an item mention never count
 * as cues ("stand-up comedy" is not "stand").
 */
import { CUES, type Cue, LAPSE_MARKERS, PAST_MARKERS } from './lexicon.js';
import type { ClauseStance, Token } from './types.js';

const byFirst = new Map<string, Cue[]>();
for (const cue of CUES) {
  const first = cue.words[0]!;
  byFirst.set(first, [...(byFirst.get(first) ?? []), cue]);
}

const same = (token: Token, word: string) => token.lemma === word || token.lower === word;

/** The last position of `cue` matched from `start` (up to two tokens between words), or -1. */
function matchCue(tokens: readonly Token[], start: number, cue: Cue, skip: ReadonlySet<number>): number {
  if (cue.pos !== undefined && !cue.pos.includes(tokens[start]!.pos)) return -1;
  let at = start;
  for (const word of cue.words.slice(1)) {
    let found = -1;
    for (let j = at + 1; j <= at + 3 && j < tokens.length; j++) {
      if (tokens[j]!.pos === 'PUNCT') break;
      if (!skip.has(j) && same(tokens[j]!, word)) {
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
  tokens.some((_, i) => words.every((word, j) => tokens[i + j] !== undefined && same(tokens[i + j]!, word)));

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
  for (let i = 0; i < tokens.length; i++) {
    if (skip.has(i) || used.has(i)) continue;
    const token = tokens[i]!;
    const candidates = [
      ...(byFirst.get(token.lemma) ?? []),
      ...(token.lemma === token.lower ? [] : (byFirst.get(token.lower) ?? [])),
    ];
    // Longest cue first: "no longer" before "no", "can not get enough" before "can".
    candidates.sort((a, b) => b.words.length - a.words.length);
    for (const cue of candidates) {
      const end = matchCue(tokens, i, cue, skip);
      if (end < 0) continue;
      for (let j = i; j <= end; j++) used.add(j);
      const flip = !cue.fixed && token.negated ? -1 : 1;
      score += cue.score * flip;
      if (cue.score !== 0) hits++;
      ended ||= cue.ended === true;
      still ||= cue.still === true;
      break;
    }
    // "way too heavy", "too much effort": an excess is a complaint.
    const next = tokens[i + 1];
    if (
      token.lower === 'too' &&
      next !== undefined &&
      ['ADJ', 'ADV'].includes(next.pos) &&
      !used.has(i + 1)
    ) {
      score += token.negated ? 1 : -1.5;
      hits++;
    }
  }
  const negatedVerb = tokens.some((t, i) => !skip.has(i) && t.negated && t.pos === 'VERB');
  // A lapse: "I haven't touched it since spring", "not in months".
  if (negatedVerb && tokens.some((t) => t.negated && LAPSE_MARKERS.includes(t.lemma))) {
    ended = true;
    if (hits === 0) score -= 0.5;
  } else if (negatedVerb && hits === 0) {
    // "I don't eat it", "I never order them": not doing is a mild dislike.
    score -= 0.75;
  }
  const past = !ended && PAST_MARKERS.some((marker) => hasSequence(tokens, marker));
  return { score, ended, past, still };
}
