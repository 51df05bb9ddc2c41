import { describe, expect, it } from 'vitest';
import { BIG_FIVE_TRAITS } from '../schemas/common.js';
import { PersonasConfig } from '../schemas/personas-config.js';
import { createRng } from '../util/rng.js';
import { drawBigFive, interactionStyleFor } from './big-five.js';

describe('drawBigFive', () => {
  it('draws integers 1..5 whose frequencies match the configured weights within 1.5 points', () => {
    const config = PersonasConfig.parse({
      bigFive: { weights: [1, 2, 4, 2, 1], traits: { neuroticism: [0, 0, 0, 1, 1] } },
    }).bigFive;
    const rng = createRng(9, 'big-five-test');
    const n = 20_000;
    let outOfRange = 0;
    const counts = Object.fromEntries(BIG_FIVE_TRAITS.map((trait) => [trait, [0, 0, 0, 0, 0]])) as Record<
      string,
      number[]
    >;
    for (let i = 0; i < n; i++) {
      const scores = drawBigFive(rng, config);
      for (const trait of BIG_FIVE_TRAITS) {
        const score = scores[trait];
        if (!(Number.isInteger(score) && score >= 1 && score <= 5)) outOfRange++;
        const row = counts[trait] as number[];
        row[score - 1] = (row[score - 1] ?? 0) + 1;
      }
    }
    expect(outOfRange).toBe(0);
    const expected = [0.1, 0.2, 0.4, 0.2, 0.1];
    for (const trait of ['openness', 'conscientiousness', 'extraversion', 'agreeableness']) {
      (counts[trait] as number[]).forEach((count, index) => {
        expect(Math.abs(count / n - (expected[index] as number))).toBeLessThan(0.015);
      });
    }
    const neuro = counts.neuroticism as number[];
    expect(neuro.slice(0, 3)).toEqual([0, 0, 0]);
    expect(Math.abs((neuro[3] as number) / n - 0.5)).toBeLessThan(0.015);
  });

  it('rejects a distribution with no positive weight', () => {
    expect(() => PersonasConfig.parse({ bigFive: { weights: [0, 0, 0, 0, 0] } })).toThrow();
  });

  it('asks for a reassuring tone when neuroticism is high', () => {
    const style = interactionStyleFor({
      openness: 2,
      conscientiousness: 3,
      extraversion: 1,
      agreeableness: 3,
      neuroticism: 5,
    });
    expect(style).toContain('reassuring');
    expect(style).toContain('practical');
    expect(style).toContain('brief');
  });
});
