import { describe, expect, it } from 'vitest';
import { createLshIndex, createMinHasher, estimateJaccard, wordShingles } from './index.js';

const text = 'we walked along the quiet river at dawn and watched the herons fish near the old stone bridge';

describe('MinHash + LSH', () => {
  const hasher = createMinHasher(64);
  it('estimates Jaccard close to the true value', () => {
    const a = wordShingles(text, 3);
    const b = wordShingles(`${text} before breakfast`, 3);
    const truth = a.filter((s) => b.includes(s)).length / new Set([...a, ...b]).size;
    expect(Math.abs(estimateJaccard(hasher.signature(a), hasher.signature(b)) - truth)).toBeLessThan(0.15);
  });

  it('finds a near-duplicate and points at the earlier item, ignores unrelated text', () => {
    const index = createLshIndex(8, 0.8);
    expect(index.add('a', 'u1', hasher.signature(wordShingles(text, 3)))).toBeNull();
    expect(
      index.add(
        'b',
        'u1',
        hasher.signature(
          wordShingles(
            'completely different words about cooking spicy noodles with garlic and ginger tonight',
            3,
          ),
        ),
      ),
    ).toBeNull();
    const found = index.add('c', 'u2', hasher.signature(wordShingles(`${text}.`, 3)));
    expect(found).toMatchObject({ id: 'c', duplicateOf: 'a', duplicateOfUser: 'u1', similarity: 1 });
  });

  it('is deterministic across hasher instances', () => {
    const shingles = wordShingles(text, 3);
    expect(createMinHasher(64).signature(shingles)).toEqual(hasher.signature(shingles));
  });
});
