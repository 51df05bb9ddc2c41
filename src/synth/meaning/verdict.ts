/**
 * From the readings of an item's clauses to a verdict on one expectation. `contradicts` only
 * when the user says the opposite (the other polarity, an ending of what holds, a stance that
 * still holds what ended, the condition excluded); `unsure` when nothing read can be trusted.
 */
import { clauseText } from './clauses.js';
import { conditionEvidence } from './conditions.js';
import { EXCLUDING } from './lexicon.js';
import { readClause } from './stance.js';
import type { Clause, ClauseStance, MeaningExpectation, MeaningReading } from './types.js';

/** A clause of an item's scope: `core` when it names the item. */
export type ScopeClause = Clause & { skip: Set<number>; core: boolean };

interface Reading {
  stance: ClauseStance;
  clause: Clause & { skip: Set<number> };
}

const NEGATORS = new Set(['never', 'not', 'no', "n't"]);

export function decide(
  expectation: MeaningExpectation,
  readings: readonly Reading[],
  scope: readonly ScopeClause[],
): MeaningReading {
  const item = expectation.item;
  const result = (
    verdict: MeaningReading['verdict'],
    reason: string,
    clause?: { tokens: Clause['tokens'] },
  ) => ({
    item,
    verdict,
    clause: clause === undefined ? clauseText(scope[0]?.tokens ?? []) : clauseText(clause.tokens),
    reason,
    missing: false,
  });
  const present = readings.filter((r) => !r.stance.ended && !r.stance.past);
  const score = present.reduce((sum, r) => sum + r.stance.score, 0);
  const last = readings.at(-1)?.clause;
  const endedLike = readings.find((r) => r.stance.ended && r.stance.score <= 0);
  const endedDislike = readings.find((r) => r.stance.ended && r.stance.score > 0);
  const pastLike = readings.find((r) => r.stance.past && r.stance.score > 0);
  const pastDislike = readings.find((r) => r.stance.past && r.stance.score < 0);
  const still = readings.find((r) => r.stance.still);
  const stoppedLiking =
    endedLike ?? (pastLike !== undefined && score <= 0 && still === undefined ? pastLike : undefined);
  const stoppedDisliking =
    endedDislike ?? (pastDislike !== undefined && score >= 0 ? pastDislike : undefined);
  const sign = expectation.polarity === 'like' ? 1 : -1;
  const said = (s: number) => (s > 0 ? 'a like' : 'a dislike');

  if (expectation.ended) {
    const ended = expectation.polarity === 'like' ? stoppedLiking : stoppedDisliking;
    if (ended !== undefined)
      return result('agrees', `says the ${expectation.polarity} of "${item}" ended`, ended.clause);
    if (still !== undefined && score * sign >= 0)
      return result('contradicts', `says the ${expectation.polarity} of "${item}" still holds`, still.clause);
    if (score * sign > 0)
      return result('contradicts', `reads as ${said(score)} that still holds, planned ended`, last);
    if (score * sign < 0)
      return result('agrees', `reads as ${said(score)} now, so the ${expectation.polarity} ended`, last);
    return result('unsure', `no reading of whether the ${expectation.polarity} of "${item}" ended`);
  }

  let verdict: MeaningReading;
  const reversed = expectation.polarity === 'like' ? stoppedLiking : stoppedDisliking;
  const kept = expectation.polarity === 'like' ? stoppedDisliking : stoppedLiking;
  if (reversed !== undefined && score * sign <= 0)
    verdict = result(
      'contradicts',
      `says the ${expectation.polarity} of "${item}" ended, planned current`,
      reversed.clause,
    );
  else if (score * sign > 0) verdict = result('agrees', `reads as ${said(score)}`, present.at(-1)?.clause);
  else if (score * sign < 0)
    verdict = result(
      'contradicts',
      `reads as ${said(score)}, planned ${expectation.polarity}`,
      present.at(-1)?.clause,
    );
  else if (kept !== undefined) verdict = result('agrees', `says the opposite stance ended`, kept.clause);
  else if (still !== undefined && sign > 0)
    verdict = result('agrees', `says the user keeps at "${item}"`, still.clause);
  else verdict = result('unsure', `no reading of the user's stance toward "${item}"`);
  if (expectation.condition === null) return verdict;
  return decideCondition(expectation, expectation.condition, verdict, scope, sign);
}

/** Reads the planned condition: kept, excluded, or not said. */
function decideCondition(
  expectation: MeaningExpectation,
  condition: string,
  verdict: MeaningReading,
  scope: readonly ScopeClause[],
  sign: number,
): MeaningReading {
  const user = scope.map((_, i) => i).filter((i) => scope[i]!.holder !== 'other');
  let at = user.find((i) => conditionEvidence(scope[i]!.tokens, condition, scope[i]!.skip) !== null);
  if (at === undefined) {
    // A condition may span a clause break ("Monday to Friday, my mornings start with …"): the
    // user's clauses of one sentence together, read at the item's own clause.
    for (const sentence of new Set(user.map((i) => scope[i]!.sentence))) {
      const together = user.filter((i) => scope[i]!.sentence === sentence);
      const tokens = together.flatMap((i) => scope[i]!.tokens);
      const skip = new Set<number>();
      let offset = 0;
      for (const i of together) {
        for (const s of scope[i]!.skip) skip.add(s + offset);
        offset += scope[i]!.tokens.length;
      }
      if (conditionEvidence(tokens, condition, skip) === null) continue;
      at = together.find((i) => scope[i]!.core) ?? together[0]!;
      break;
    }
  }
  if (at === undefined) {
    if (verdict.verdict !== 'agrees') return verdict;
    return {
      ...verdict,
      verdict: 'unsure',
      reason: `${verdict.reason}, but the condition "${condition}" is not said`,
    };
  }
  const clause = scope[at]!;
  const base = { item: expectation.item, clause: clauseText(clause.tokens), missing: false };
  const evidence = conditionEvidence(clause.tokens, condition, clause.skip);
  if (evidence !== null) {
    const first = Math.min(...evidence);
    // Only the words right before the condition can exclude it: a negator that a verb or noun
    // separates from it belongs to that word ("can't stand karaoke late at night" keeps it).
    const before: typeof clause.tokens = [];
    for (let i = first - 1; i >= Math.max(0, first - 3); i--) {
      const token = clause.tokens[i]!;
      if (CONTENT_POS.has(token.pos)) break;
      before.unshift(token);
    }
    if (EXCLUDING.has(clause.opener) || before.some((t) => EXCLUDING.has(t.lower) || NEGATORS.has(t.lower)))
      return { ...base, verdict: 'contradicts', reason: `excludes the condition "${condition}"` };
  }
  // The condition's own clause decides, else the nearest of the item's own clauses that has a stance.
  const order = [
    at,
    ...scope
      .map((_, j) => j)
      .filter(
        (j) =>
          j !== at &&
          scope[j]!.core &&
          scope[j]!.holder !== 'other' &&
          scope[j]!.sentence === clause.sentence,
      )
      .sort((a, b) => Math.abs(a - at!) - Math.abs(b - at!) || a - b),
  ];
  for (const j of order) {
    const stance = readClause(scope[j]!.tokens, scope[j]!.skip);
    if (stance.ended || stance.past) continue;
    const own = stance.score;
    if (own * sign > 0)
      return {
        ...base,
        verdict: 'agrees',
        reason: `keeps the condition "${condition}" with ${own > 0 ? 'a like' : 'a dislike'}`,
      };
    if (own * sign < 0)
      return {
        ...base,
        verdict: 'contradicts',
        reason: `under the condition "${condition}" reads as ${own > 0 ? 'a like' : 'a dislike'}`,
      };
  }
  return verdict.verdict === 'agrees'
    ? { ...verdict, reason: `${verdict.reason}, keeps the condition "${condition}"` }
    : verdict;
}

const CONTENT_POS = new Set(['VERB', 'NOUN', 'PROPN']);
