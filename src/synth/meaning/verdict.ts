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

interface Reading {
  stance: ClauseStance;
  clause: Clause & { skip: Set<number> };
}

const NEGATORS = new Set(['never', 'not', 'no', "n't"]);

export function decide(
  expectation: MeaningExpectation,
  readings: readonly Reading[],
  scope: ReadonlyArray<Clause & { skip: Set<number> }>,
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
  else verdict = result('unsure', `no reading of the user's stance toward "${item}"`);
  if (expectation.condition === null) return verdict;
  return decideCondition(expectation, expectation.condition, verdict, scope, sign);
}

/** Reads the planned condition: kept, excluded, or not said. */
function decideCondition(
  expectation: MeaningExpectation,
  condition: string,
  verdict: MeaningReading,
  scope: ReadonlyArray<Clause & { skip: Set<number> }>,
  sign: number,
): MeaningReading {
  for (const [i, clause] of scope.entries()) {
    if (clause.holder === 'other') continue;
    const evidence = conditionEvidence(clause.tokens, condition, clause.skip);
    if (evidence === null) continue;
    const at = Math.min(...evidence);
    const before = clause.tokens.slice(Math.max(0, at - 3), at);
    const quoted = clauseText(clause.tokens);
    const base = { item: expectation.item, clause: quoted, missing: false };
    if (
      EXCLUDING.has(clause.opener) ||
      before.some((t) => EXCLUDING.has(t.lower) || NEGATORS.has(t.lower)) ||
      clause.tokens[at]!.negated
    )
      return { ...base, verdict: 'contradicts', reason: `excludes the condition "${condition}"` };
    // The condition's own clause decides, else the nearest clause of the item that has a stance.
    const order = [
      i,
      ...scope.map((_, j) => j).filter((j) => j > i),
      ...scope
        .map((_, j) => j)
        .filter((j) => j < i)
        .reverse(),
    ];
    for (const j of order) {
      const near = scope[j]!;
      if (near.holder === 'other') continue;
      const own = readClause(near.tokens, near.skip).score;
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
  if (verdict.verdict !== 'agrees') return verdict;
  return {
    ...verdict,
    verdict: 'unsure',
    reason: `${verdict.reason}, but the condition "${condition}" is not said`,
  };
}
