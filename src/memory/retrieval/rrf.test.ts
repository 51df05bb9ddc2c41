import { describe, expect, it } from 'vitest';
import { fuseRrf } from './rrf.js';

const list = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));

describe('fuseRrf', () => {
  it('sums 1/(k + rank) over paths and orders by the sum', () => {
    const fused = fuseRrf([list('a', 'b', 'c'), list('c', 'a', 'd')], 60);
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[3]?.score).toBeCloseTo(1 / 63, 12);
  });

  it('breaks score ties by the best single rank, then id', () => {
    const fused = fuseRrf([list('x', 'y'), list('y', 'x'), list('z')], 60);
    expect(fused.map((f) => f.id)).toEqual(['x', 'y', 'z']);
  });

  it('lets a document found by both paths beat one ranked first by a single path', () => {
    const fused = fuseRrf([list('solo', 'both'), list('other', 'both')], 60);
    expect(fused[0]?.id).toBe('both');
  });
});
