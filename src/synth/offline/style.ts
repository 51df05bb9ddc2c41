import type { BigFive } from '../../schemas/common.js';
import type { STYLE_CLAUSES } from './style-clauses.js';

/**
 * How the user's Big Five (at the turn's time, so drift shows) shapes the surface of a user
 * turn. Scores are 1–5 (SPEC.md §1); 3 is neutral and contributes nothing. A style sentence is
 * said on a minority of turns (at most 10% per trait for a score of 1 or 5, 5% for 2 or 4), so no opening
 * or ending becomes the run's stock phrase.
 *
 * @example styleFor({ openness: 3, conscientiousness: 3, extraversion: 5, agreeableness: 3, neuroticism: 1 }).exclaim // 0.4
 */
export interface UserStyle {
  /** Probability that a sentence ends with "!" (high extraversion). */
  exclaim: number;
  /** Probability of a second, chattier sentence in a filler turn. */
  verbose: number;
  /** Style banks this user draws from, each with its per-turn probability. */
  banks: ReadonlyArray<readonly [keyof typeof STYLE_CLAUSES, number]>;
  /** Low agreeableness: shorter assistant replies. */
  terse: boolean;
}

/** Distance from neutral, 0…1. */
const lean = (score: number): number => Math.min(1, Math.abs(score - 3) / 2);

const BANKS: ReadonlyArray<readonly [keyof BigFive, keyof typeof STYLE_CLAUSES, keyof typeof STYLE_CLAUSES]> =
  [
    ['extraversion', 'extravertHigh', 'extravertLow'],
    ['neuroticism', 'neuroticHigh', 'neuroticLow'],
    ['agreeableness', 'agreeableHigh', 'agreeableLow'],
    ['openness', 'openHigh', 'openLow'],
    ['conscientiousness', 'conscientiousHigh', 'conscientiousLow'],
  ];

export function styleFor(bigFive: BigFive): UserStyle {
  const banks: Array<readonly [keyof typeof STYLE_CLAUSES, number]> = [];
  for (const [trait, high, low] of BANKS) {
    const score = bigFive[trait];
    if (score === 3) continue;
    banks.push([score > 3 ? high : low, 0.1 * lean(score)]);
  }
  const up = Math.max(0, bigFive.extraversion - 3) / 2;
  const down = Math.max(0, 3 - bigFive.extraversion) / 2;
  return {
    exclaim: 0.4 * up,
    verbose: 0.75 + 0.25 * up - 0.3 * down,
    banks,
    terse: bigFive.agreeableness < 3,
  };
}
