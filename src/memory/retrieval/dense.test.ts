import { describe, expect, it } from 'vitest';
import { offlineEmbedding } from '../../llm/offline-backend.js';
import { createRng } from '../../util/rng.js';
import { DenseIndex } from './dense.js';

describe('DenseIndex', () => {
  it('ranks by cosine exactly on small indexes, ties by id', () => {
    const index = new DenseIndex();
    index.add('b', [1, 0]);
    index.add('a', [2, 0]);
    index.add('c', [1, 1]);
    index.add('d', [0, 1]);
    const hits = index.search([1, 0], 3);
    expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(hits[2]?.score).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('applies the filter before ranking and forgets removed ids', () => {
    const index = new DenseIndex();
    index.add('a', [1, 0]);
    index.add('b', [0.9, 0.1]);
    index.remove('a');
    expect(index.search([1, 0], 5, (id) => id !== 'c').map((h) => h.id)).toEqual(['b']);
    expect(index.size).toBe(1);
  });

  it('rejects vectors of another dimension', () => {
    const index = new DenseIndex();
    index.add('a', [1, 0, 0]);
    expect(() => index.add('b', [1, 0])).toThrow(/2 dims/);
  });

  it('keeps high recall in the coarse (SimHash) pass and is deterministic', () => {
    const rng = createRng(3, 'dense-test');
    const texts = Array.from({ length: 3000 }, () =>
      Array.from({ length: 12 }, () => `w${rng.int(0, 800)}`).join(' '),
    );
    const coarse = new DenseIndex({ exactLimit: 100, rerank: 200 });
    const again = new DenseIndex({ exactLimit: 100, rerank: 200 });
    const exact = new DenseIndex({ exactLimit: Number.POSITIVE_INFINITY });
    texts.forEach((text, i) => {
      const vector = offlineEmbedding(text, 128);
      coarse.add(`m${i}`, vector);
      again.add(`m${i}`, vector);
      exact.add(`m${i}`, vector);
    });
    let recall = 0;
    for (let q = 0; q < 30; q++) {
      const query = offlineEmbedding(rng.sample((texts[q * 7] as string).split(' '), 4).join(' '), 128);
      const truth = new Set(exact.search(query, 5).map((h) => h.id));
      const got = coarse.search(query, 5);
      expect(again.search(query, 5)).toEqual(got);
      recall += got.filter((h) => truth.has(h.id)).length / 5;
    }
    expect(recall / 30).toBeGreaterThan(0.8);
  });
});

describe('DenseIndex edge cases', () => {
  it('returns nothing for a zero query', () => {
    const index = new DenseIndex();
    index.add('a', [1, 0]);
    expect(index.search([0, 0], 3)).toEqual([]);
  });
});
