import type { BigFive } from '../../schemas/common.js';

/**
 * How the user's Big Five (at the turn's time, so drift shows) shapes the surface of a user
 * turn. Each field is a probability per sentence or turn. Scores are 1–5 (SPEC.md §1); 3 is
 * neutral and contributes nothing, each step away from 3 adds a quarter.
 *
 * @example styleFor({ openness: 3, conscientiousness: 3, extraversion: 5, agreeableness: 3, neuroticism: 1 }).exclaim // 0.5
 */
export interface UserStyle {
  /** High extraversion: exclamations and lively openers. */
  exclaim: number;
  /** Low extraversion: short, hedged openers, fewer extra sentences. */
  reserved: number;
  /** High neuroticism: worry markers. */
  worry: number;
  /** Low agreeableness: blunt demands. */
  blunt: number;
  /** High agreeableness: politeness markers. */
  polite: number;
  /** High openness: curiosity markers. */
  curious: number;
  /** High conscientiousness: planning markers. */
  planner: number;
  /** Probability of a second, chattier sentence in a filler turn. */
  verbose: number;
}

const above = (score: number): number => Math.max(0, (score - 3) / 2) * 0.5;
const below = (score: number): number => Math.max(0, (3 - score) / 2) * 0.5;

export function styleFor(bigFive: BigFive): UserStyle {
  return {
    exclaim: above(bigFive.extraversion),
    reserved: below(bigFive.extraversion),
    worry: above(bigFive.neuroticism),
    blunt: below(bigFive.agreeableness),
    polite: above(bigFive.agreeableness),
    curious: above(bigFive.openness),
    planner: above(bigFive.conscientiousness),
    verbose: 0.35 + above(bigFive.extraversion) - below(bigFive.extraversion) * 0.5,
  };
}
