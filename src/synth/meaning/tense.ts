/**
 * A stance said in the simple past and set against the present by the next clause: "Jasmine green
 * tea was my thing, but now it's all bubble milk tea", "I loved hot and sour soup; these days
 * it's miso". The past tense alone does not end a stance ("I loved the ramen we had") — the
 * contrast with now does.
 */
import type { Clause, Token } from './types.js';

/** Openers that set a clause against the one before it. */
const CONTRASTS = new Set(['but', 'yet', 'whereas', 'though', 'although']);
/** Punctuation that sets a clause against the one before it. */
const TURNS = new Set([';', '-', '—', '–', ':']);
/** Words that say a clause speaks of the present, as opposed to before. */
const NOW = new Set(['now', 'nowadays', 'lately', 'currently', 'today']);
/** Present forms of the auxiliaries: "I'm hooked", "I've loved it" are not the simple past. */
const PRESENT_AUX = new Set(['am', 'is', 'are', "'m", "'s", "'re", 'be', 'been', 'have', 'has', "'ve"]);

/** True when the clause states something in the simple past ("was my thing", "I loved"). */
export function simplePast(tokens: readonly Token[], skip: ReadonlySet<number>): boolean {
  return tokens.some((token, i) => {
    if (skip.has(i)) return false;
    if (token.lower === 'was' || token.lower === 'were') return true;
    if (token.pos !== 'VERB' || !token.lower.endsWith('ed') || token.lemma === token.lower) return false;
    // The auxiliary before the participle (adverbs between): "I've always loved", "I'm hooked".
    for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
      if (tokens[j]!.pos === 'ADV') continue;
      return !PRESENT_AUX.has(tokens[j]!.lower);
    }
    return true;
  });
}

/**
 * True when a clause opens on the present: "now …", "these days …", "and lately …" ("I feel
 * swamped lately" only says when, it does not set itself against before).
 */
export function opensOnNow(tokens: readonly Token[]): boolean {
  const start = ['CCONJ', 'ADV'].includes(tokens[0]?.pos ?? '') && !NOW.has(tokens[0]!.lower) ? 1 : 0;
  const token = tokens[start];
  if (token === undefined) return false;
  return NOW.has(token.lower) || (token.lower === 'these' && tokens[start + 1]?.lemma === 'day');
}

/**
 * True when `next` sets itself against `clause` as the present: a new sentence, a contrast
 * ("but", "yet") or a turn in punctuation ("; now …", "- these days …"), opening on now.
 * `mark` is the punctuation right before `next` ('' when none).
 */
export function thenNow(clause: Clause, next: Clause | undefined, mark: string): boolean {
  if (next === undefined || !opensOnNow(next.tokens)) return false;
  return next.sentence !== clause.sentence || CONTRASTS.has(next.opener) || TURNS.has(mark);
}
