import { describe, expect, it } from 'vitest';
import { createRng } from './rng.js';

describe('createRng', () => {
  it('gives the same stream for the same seed and key, and a different one for another key', () => {
    const a = createRng(7, 'user-1');
    const b = createRng(7, 'user-1');
    const c = createRng(7, 'user-2');
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
  });

  it('draws integers inside the inclusive range with every value reachable', () => {
    const rng = createRng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = rng.int(1, 5);
      expect(v).toBeGreaterThanOrEqual(1);
      expect(v).toBeLessThanOrEqual(5);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('poisson draws average close to the mean', () => {
    const rng = createRng(3);
    let sum = 0;
    for (let i = 0; i < 20000; i++) sum += rng.poisson(4);
    expect(sum / 20000).toBeGreaterThan(3.9);
    expect(sum / 20000).toBeLessThan(4.1);
  });
});
