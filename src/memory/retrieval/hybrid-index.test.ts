import { describe, expect, it } from 'vitest';
import type { Embedder } from '../types.js';
import { HybridIndex } from './hybrid-index.js';
import { createOfflineEmbedder } from './offline-embedder.js';

describe('HybridIndex', () => {
  it('lets concurrent searches share one embedding batch and see every document', async () => {
    const base = createOfflineEmbedder(64);
    let batches = 0;
    const slow: Embedder = async (texts) => {
      if (texts.length > 1) batches++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return base(texts);
    };
    const index = new HybridIndex({ embedder: slow });
    for (let i = 0; i < 20; i++) index.add(`d${i}`, `note number ${i} about tea`);
    const results = await Promise.all([0, 1, 2].map(() => index.search('tea', { k: 20, mode: 'dense' })));
    for (const result of results) expect(result).toHaveLength(20);
    expect(batches).toBe(1);
  });

  it('falls back to BM25 without an embedder', async () => {
    const index = new HybridIndex();
    index.add('a', 'green tea');
    index.add('b', 'black coffee');
    expect((await index.search('tea', { k: 5 })).map((hit) => hit.id)).toEqual(['a']);
  });
});
