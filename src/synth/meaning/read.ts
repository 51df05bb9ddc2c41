/**
 * The meaning reader: for each expectation (item, polarity, ended, condition) whether a text
 * `agrees`, `contradicts` or leaves the reader `unsure`, with the clause it read and why.
 *
 * A text is parsed (src/synth/meaning/nlp.ts), split into clauses with their holders, and each
 * item is read from the user's clauses that name it (or, when those say nothing, from the
 * user's clauses around them). Another person's stance never counts ("my brother loves sushi").
 */
import { splitClauses } from './clauses.js';
import { EXCLUDING, REASON_OPENERS, REFERENCES } from './lexicon.js';
import { findMentions, itemNames, itemWords, type NameWord, namesAnotherKind } from './mentions.js';
import { parse } from './nlp.js';
import { ROLE_STANCE, readRoles } from './roles.js';
import { readClause } from './stance.js';
import { simplePast, thenNow } from './tense.js';
import type { Clause, ClauseStance, MeaningExpectation, MeaningReading, Token } from './types.js';
import { decide } from './verdict.js';

interface ReadClause extends Clause {
  /** Expectations named in the clause, in text order. */
  named: number[];
  /** Positions (in `tokens`) of item words. */
  skip: Set<number>;
  /** Roles of the items the clause names. */
  roles: Map<number, ClauseStance>;
  /** Said in the simple past and set against now by the next clause ("was my thing, but now …"). */
  bygone: boolean;
  /** The punctuation right before the clause ('' when none). */
  mark: string;
  /** Every item the clause names is only where something happens ("still in my work clothes on the train"). */
  placeOnly: boolean;
}

const informative = (s: ClauseStance) => s.score !== 0 || s.ended || s.past || s.still;

/**
 * Reads `text` against each expectation.
 *
 * @example readMeaning("My brother is obsessed with sushi, I've never really tried it.", [{ item: 'salmon sushi', keywords: ['sushi'], polarity: 'like', ended: false, condition: null }])[0]!.verdict // 'contradicts'
 */
export function readMeaning(text: string, expectations: readonly MeaningExpectation[]): MeaningReading[] {
  const names = expectations.map(itemNames);
  const heads = expectations.map((expectation) => itemWords(expectation.item));
  const clauses: ReadClause[] = [];
  let holder: Clause['holder'] = 'user';
  for (const tokens of parse(text)) {
    const owner = mentionOwners(tokens, names, heads);
    const roles = readRoles(tokens, (i) => owner[i]!);
    const inMention = owner.map((o) => o >= 0);
    for (const clause of splitClauses(tokens, inMention, holder)) {
      holder = clause.holder;
      const skip = new Set<number>();
      const named: number[] = [];
      clause.tokens.forEach((token, i) => {
        const e = owner[tokens.indexOf(token)]!;
        if (e < 0) return;
        skip.add(i);
        if (!named.includes(e)) named.push(e);
      });
      const clauseRoles = new Map<number, ClauseStance>();
      for (const e of named) {
        const role = roles.get(e);
        if (role !== undefined) clauseRoles.set(e, ROLE_STANCE[role]);
      }
      const at = tokens.indexOf(clause.tokens[0]!);
      const mark = at > 0 && tokens[at - 1]!.pos === 'PUNCT' ? tokens[at - 1]!.lower : '';
      const placeOnly =
        named.length > 0 && [...skip].every((i) => skip.has(i - 1) || isPlace(clause.tokens, i));
      clauses.push({ ...clause, named, skip, roles: clauseRoles, bygone: false, mark, placeOnly });
    }
  }
  clauses.forEach((clause, i) => {
    const next = clauses[i + 1];
    clause.bygone = simplePast(clause.tokens, clause.skip) && thenNow(clause, next, next?.mark ?? '');
  });
  // Items that share their words (a flip of the same item, a shared keyword): both own every mention.
  const twins = expectations.map((e, i) =>
    expectations.findIndex(
      (other, j) =>
        j !== i && (other.item.toLowerCase() === e.item.toLowerCase() || other.keywords[0] === e.keywords[0]),
    ),
  );
  return expectations.map((expectation, e) => readOne(expectation, e, clauses, twins[e]!, expectations));
}

/**
 * Which expectation each token names (-1: none). The longest mention wins a word two items share:
 * in "bubble milk tea" the tea is bubble milk tea's, not jasmine green tea's; a head word that
 * another kind of modifier qualifies names neither ("miso soup" is no mention of hot and sour soup).
 */
function mentionOwners(
  tokens: readonly Token[],
  names: readonly NameWord[][][],
  heads: readonly NameWord[][],
): number[] {
  const spans = names.flatMap((itemNames, e) =>
    findMentions(tokens, itemNames)
      .filter((span) => !namesAnotherKind(tokens, span, heads[e]!))
      .map(([start, end]) => ({ e, start, end })),
  );
  spans.sort((a, b) => b.end - b.start - (a.end - a.start) || a.e - b.e || a.start - b.start);
  const owner: number[] = tokens.map(() => -1);
  for (const { e, start, end } of spans) {
    if (owner.slice(start, end + 1).some((o) => o !== -1)) continue;
    for (let i = start; i <= end; i++) owner[i] = e;
  }
  return owner;
}

/** Prepositions of place: an item after one is where something happens, not what it is about. */
const AT_PLACE = new Set(['on', 'in', 'at', 'aboard', 'inside', 'near']);

/** True when the mention starting at `i` follows a preposition of place ("on the train", "at my café"). */
function isPlace(tokens: readonly Token[], i: number): boolean {
  let j = i - 1;
  while (j >= 0 && (tokens[j]!.pos === 'DET' || ['my', 'our', 'your'].includes(tokens[j]!.lower))) j--;
  return j >= 0 && AT_PLACE.has(tokens[j]!.lower);
}

/**
 * A clause's stance, in the past when the clause is set against now (a past habit is a past
 * liking). "Still" says nothing of an item that is only where the clause happens ("I was still in
 * my work clothes on the train" does not keep a like of train travel).
 */
function readAt(clause: ReadClause): ClauseStance {
  let stance = readClause(clause.tokens, clause.skip);
  if (clause.placeOnly && stance.still && stance.score === 0 && !stance.ended && !stance.past)
    stance = { ...stance, still: false };
  if (!clause.bygone || stance.ended || stance.past) return stance;
  return { ...stance, past: true, score: stance.score === 0 ? 0.5 : stance.score };
}

function readOne(
  expectation: MeaningExpectation,
  e: number,
  clauses: readonly ReadClause[],
  twin: number,
  expectations: readonly MeaningExpectation[],
): MeaningReading {
  const mine = (c: ReadClause) => c.named.includes(e) || (twin >= 0 && c.named.includes(twin));
  const core = clauses.flatMap((c, i) => (mine(c) ? [i] : []));
  if (core.length === 0)
    return {
      item: expectation.item,
      verdict: 'unsure',
      clause: '',
      reason: `"${expectation.item}" is not mentioned`,
      missing: true,
    };
  const readings: Array<{ stance: ClauseStance; clause: ReadClause }> = [];
  const context: number[] = [];
  for (const i of core) {
    const clause = clauses[i]!;
    let stance = clause.named.length > 1 ? null : readAt(clause);
    const role = clause.roles.get(e) ?? (twin >= 0 ? clause.roles.get(twin) : undefined);
    if (role !== undefined)
      stance =
        stance === null
          ? role
          : {
              score: stance.score !== 0 ? stance.score : role.score,
              ended: stance.ended || role.ended,
              past: stance.past,
              still: stance.still || role.still,
            };
    stance ??= readAt(clause);
    if (clause.holder === 'other') {
      // "Everyone in my family loves cats, except me": the user holds the opposite.
      const after = clauses[i + 1];
      const exceptMe =
        after !== undefined &&
        EXCLUDING.has(after.opener) &&
        after.tokens.every((t) => ['me', 'for', 'myself'].includes(t.lower));
      if (exceptMe) readings.push({ stance: { ...stance, score: -stance.score }, clause });
      // "My friends love road trips, but I …": a contrast with another's stance, when the
      // user's own clause says nothing, is the opposite stance.
      const contrast = clauses[i + 1];
      if (
        contrast !== undefined &&
        contrast.sentence === clause.sentence &&
        contrast.opener === 'but' &&
        contrast.holder === 'user' &&
        contrast.named.length === 0 &&
        stance.score !== 0 &&
        !informative(readClause(contrast.tokens, contrast.skip))
      )
        readings.push({
          stance: { score: -stance.score, ended: false, past: false, still: stance.ended },
          clause: contrast,
        });
    } else readings.push({ stance, clause });
    // Clauses around a mention that name no item: "…, so I keep it off my plate".
    for (const step of [1, -1]) {
      for (let j = i + step; j >= 0 && j < clauses.length; j += step) {
        const near = clauses[j]!;
        if (near.sentence !== clause.sentence || near.named.length > 0) break;
        // Forward, a clause belongs to the last item named before it; backward, to the first after it.
        const owner = step === 1 ? clause.named.at(-1) : clause.named[0];
        if (owner !== e && owner !== twin) break;
        if (near.holder === 'other') continue;
        const refers = near.tokens.some((t) => REFERENCES.has(t.lower));
        if (REASON_OPENERS.has(near.opener) && !refers) continue;
        if (!context.includes(j)) context.push(j);
      }
    }
  }
  let used = readings.filter((r) => informative(r.stance));
  if (used.length === 0) {
    // Nothing said in the item's own clauses: the nearest informative clause around them.
    const distance = (j: number) => Math.min(...core.map((i) => Math.abs(i - j)));
    const nearest = context
      .map((j) => ({ j, stance: readAt(clauses[j]!) }))
      .filter((r) => informative(r.stance))
      .sort((a, b) => distance(a.j) - distance(b.j) || a.j - b.j)[0];
    if (nearest !== undefined) used = [{ stance: nearest.stance, clause: clauses[nearest.j]! }];
  }
  if (twin >= 0)
    used = used.filter(
      (r) =>
        (r.stance.ended || r.stance.past) === expectation.ended ||
        expectations[twin]!.ended === expectation.ended,
    );
  const scope = [...core, ...context]
    .sort((a, b) => a - b)
    .map((i) => ({ ...clauses[i]!, core: core.includes(i) }));
  return decide(expectation, used, scope);
}
