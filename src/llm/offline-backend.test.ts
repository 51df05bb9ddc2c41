import { describe, expect, it } from 'vitest';
import { fnv1a, offlineEmbedding } from './offline-backend.js';

/** The embedding as documented: each word (weight 1) and its trigrams (0.5), signed hashing, L2-normalised. */
function byDefinition(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    const slot = (hash >>> 1) % dimensions;
    vector[slot] = (vector[slot] as number) + ((hash & 1) === 0 ? 1 : -1) * weight;
  };
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.5);
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return Array.from(vector, (value) => (norm === 0 ? 0 : value / norm));
}

describe('offlineEmbedding', () => {
  it('is the hashed bag of words and trigrams bit for bit, however often a word repeats', () => {
    const texts = ['I like green tea', 'Tea, tea and more TEA: green tea!', 'Café crème à 3 €', '', '!!!'];
    for (const dimensions of [8, 384])
      for (const text of [...texts, ...texts]) {
        const vector = offlineEmbedding(text, dimensions);
        expect(vector).toHaveLength(dimensions);
        expect(vector.every((value, i) => Object.is(value, byDefinition(text, dimensions)[i]))).toBe(true);
      }
  });
});
