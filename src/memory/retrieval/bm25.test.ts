import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25.js';

/** Okapi BM25 by hand: idf = ln(1 + (N − n + 0.5)/(n + 0.5)). */
function handBm25(docs: string[][], query: string[], doc: number, k1 = 1.2, b = 0.75): number {
  const N = docs.length;
  const avgdl = docs.reduce((sum, d) => sum + d.length, 0) / N;
  const d = docs[doc] as string[];
  let score = 0;
  for (const term of new Set(query)) {
    const n = docs.filter((x) => x.includes(term)).length;
    const tf = d.filter((x) => x === term).length;
    if (tf === 0) continue;
    const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
    score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avgdl));
  }
  return score;
}

// Texts chosen so the tokenizer leaves them unchanged (no stop words, no plurals).
const corpus = [
  'spicy hotpot dinner friday',
  'hotpot hotpot broth recipe mushroom',
  'jazz concert ticket',
  'morning run park jazz playlist',
  'green tea morning',
];

describe('Bm25Index', () => {
  const index = new Bm25Index();
  corpus.forEach((text, i) => {
    index.add(`d${i}`, text);
  });
  const tokens = corpus.map((text) => text.split(' '));

  it.each([['hotpot'], ['jazz morning'], ['hotpot broth tea'], ['spicy hotpot jazz']])(
    'scores equal hand-computed BM25 for "%s"',
    (query) => {
      const results = index.search(query, 10);
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) {
        const doc = Number(result.id.slice(1));
        expect(result.score).toBeCloseTo(handBm25(tokens, query.split(' '), doc), 10);
      }
      const expectedHits = tokens.filter((d) => query.split(' ').some((t) => d.includes(t))).length;
      expect(results).toHaveLength(expectedHits);
    },
  );

  it('ranks the document with the higher term frequency first', () => {
    expect(index.search('hotpot', 2).map((r) => r.id)).toEqual(['d1', 'd0']);
  });

  it('keeps exact document frequencies after a removal', () => {
    const small = new Bm25Index();
    corpus.forEach((text, i) => {
      small.add(`d${i}`, text);
    });
    small.remove('d0');
    const rest = tokens.slice(1);
    const [top] = small.search('hotpot', 1);
    expect(top?.id).toBe('d1');
    expect(top?.score).toBeCloseTo(handBm25(rest, ['hotpot'], 0), 10);
  });

  it('honours the filter and k', () => {
    expect(index.search('jazz', 5, (id) => id !== 'd2').map((r) => r.id)).toEqual(['d3']);
    expect(index.search('hotpot jazz', 1)).toHaveLength(1);
  });
});
