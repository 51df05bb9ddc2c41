import { describe, expect, it } from 'vitest';
import type { BigFive } from '../../schemas/common.js';
import { pemLambda, updatePersonality } from './pem.js';

const five = (v: number): BigFive => ({
  openness: v,
  conscientiousness: v,
  extraversion: v,
  agreeableness: v,
  neuroticism: v,
});

describe('PEM', () => {
  it.each([
    [0, 0.5],
    [25, 0.7],
    [50, 0.9],
    [80, 0.9],
  ])('λ_m at m = %i is %f', (m, expected) => {
    expect(pemLambda(m)).toBeCloseTo(expected, 12);
  });

  it('applies the EMA p ← λp + (1−λ)p′ with λ_0 = 0.5', () => {
    const update = updatePersonality({ p: five(3), turns: 0 }, { ...five(5), neuroticism: 1 });
    expect(update.skipped).toBe(false);
    expect(update.state.p.openness).toBeCloseTo(4, 9);
    expect(update.state.p.neuroticism).toBeCloseTo(2, 9);
    expect(update.state.turns).toBe(1);
  });

  it('uses λ_25 = 0.7 at the 26th turn', () => {
    const update = updatePersonality({ p: five(2), turns: 25 }, five(4));
    expect(update.state.p.openness).toBeCloseTo(0.7 * 2 + 0.3 * 4, 9);
  });

  it('skips the update when all five inferred scores are 3, but counts the turn', () => {
    const state = { p: { ...five(4), neuroticism: 1.5 }, turns: 7 };
    const update = updatePersonality(state, five(3));
    expect(update.skipped).toBe(true);
    expect(update.state.p).toEqual(state.p);
    expect(update.state.turns).toBe(8);
  });

  it('does not skip when only four scores are neutral', () => {
    const update = updatePersonality({ p: five(3), turns: 0 }, { ...five(3), openness: 4 });
    expect(update.skipped).toBe(false);
    expect(update.state.p.openness).toBeCloseTo(3.5, 9);
  });
});
