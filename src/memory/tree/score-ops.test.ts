import { describe, expect, it } from 'vitest';
import { scoreTreeOps } from './score-ops.js';

const GOLD = 'UPDATE(a.food.coffee, "likes black americano, earlier oat lattes")\nADD(a.id.name, "Ana")';

describe('scoreTreeOps', () => {
  it('gives 1 to an exact match in any order', () => {
    expect(scoreTreeOps(GOLD.split('\n').reverse().join('\n'), GOLD).score).toBe(1);
  });

  it('gives 1 to NO_OP against NO_OP and −1 to an empty prediction', () => {
    expect(scoreTreeOps('NO_OP()', 'NO_OP()').score).toBe(1);
    expect(scoreTreeOps('', GOLD).score).toBe(-1);
    expect(scoreTreeOps('garbage line', GOLD).score).toBe(-1);
  });

  it('orders partial answers: right op+path beats right path only beats wrong path', () => {
    const valueOff = scoreTreeOps('UPDATE(a.food.coffee, "likes tea")\nADD(a.id.name, "Ana")', GOLD).score;
    const opOff = scoreTreeOps('DELETE(a.food.coffee, None)\nADD(a.id.name, "Ana")', GOLD).score;
    const pathOff = scoreTreeOps(
      'UPDATE(b.x, "likes black americano, earlier oat lattes")\nADD(a.id.name, "Ana")',
      GOLD,
    ).score;
    const half = scoreTreeOps('ADD(a.id.name, "Ana")', GOLD).score;
    expect(valueOff).toBeLessThan(1);
    expect(valueOff).toBeGreaterThan(opOff);
    expect(half).toBeCloseTo(2 * (2 / 3) - 1, 6);
    expect(pathOff).toBeLessThan(valueOff);
    for (const score of [valueOff, opOff, pathOff, half]) expect(score).toBeGreaterThanOrEqual(-1);
  });

  it('penalizes unparseable lines next to correct ones', () => {
    const clean = scoreTreeOps(GOLD, GOLD).score;
    const noisy = scoreTreeOps(`${GOLD}\nSure! Here are the ops.`, GOLD).score;
    expect(noisy).toBeLessThan(clean);
  });

  it('is −1 when ops are predicted for a NO_OP chunk', () => {
    expect(scoreTreeOps('ADD(a.id.name, "Ana")', 'NO_OP()').score).toBe(-1);
  });
});
