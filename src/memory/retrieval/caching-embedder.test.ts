import { describe, expect, it } from 'vitest';
import { createCachingEmbedder, createRecordingEmbedder } from './caching-embedder.js';
import { createOfflineEmbedder } from './offline-embedder.js';

describe('caching embedder', () => {
  it('sends each text once, all missing texts in one call, and answers from the cache after', async () => {
    const sent: string[][] = [];
    const offline = createOfflineEmbedder(16);
    const cached = createCachingEmbedder(async (texts) => {
      sent.push(texts);
      return offline(texts);
    });
    await cached.prefetch(['tea', 'hotpot', 'tea', 'jazz']);
    expect(sent).toEqual([['tea', 'hotpot', 'jazz']]);
    const vectors = await cached.embed(['jazz', 'tea']);
    expect(vectors).toEqual(await offline(['jazz', 'tea']));
    expect(sent).toHaveLength(1);
    await cached.embed(['tea', 'new text']);
    expect(sent).toEqual([['tea', 'hotpot', 'jazz'], ['new text']]);
    expect(cached.calls()).toBe(2);
  });

  it('records what a dry run asks for and answers with the given vectors', async () => {
    const recording = createRecordingEmbedder(createOfflineEmbedder(8));
    const vectors = await recording.embed(['a b', 'c']);
    await recording.embed(['c', 'd']);
    expect(vectors).toHaveLength(2);
    expect(recording.texts()).toEqual(['a b', 'c', 'd']);
  });
});
