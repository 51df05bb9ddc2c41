import type { Embedder } from '../types.js';

export interface CachingEmbedder {
  /** Embeds through the cache: only texts never seen are sent, in one call. */
  embed: Embedder;
  /** Embeds every text not yet cached, in one call (the llm layer splits it by the endpoint's batch limit). */
  prefetch(texts: readonly string[]): Promise<void>;
  /** Calls made to the underlying embedder so far. */
  calls(): number;
}

/**
 * An embedder that caches vectors by text content and sends only the texts it has not seen, all
 * at once: with `prefetch`, a user's whole replay embeds in one batched request (or a few, when
 * the endpoint's `embeddingBatchSize` is smaller) instead of one request per search.
 *
 * @example
 * const cached = createCachingEmbedder(embedderFromLlm(llm));
 * await cached.prefetch(texts);
 * const memory = createPersonaMemory({ embedder: cached.embed });
 */
export function createCachingEmbedder(base: Embedder): CachingEmbedder {
  const cache = new Map<string, number[]>();
  let calls = 0;
  const fill = async (texts: readonly string[]): Promise<void> => {
    const missing = [...new Set(texts)].filter((text) => !cache.has(text));
    if (missing.length === 0) return;
    calls++;
    const vectors = await base(missing);
    missing.forEach((text, index) => {
      const vector = vectors[index];
      if (vector !== undefined) cache.set(text, vector);
    });
  };
  return {
    async embed(texts) {
      await fill(texts);
      return texts.map((text) => cache.get(text) ?? []);
    },
    prefetch: fill,
    calls: () => calls,
  };
}

/**
 * An embedder that answers with `vectors` (the offline embedding) and records every text it was
 * asked for, so a dry replay can list what the real replay will embed.
 */
export function createRecordingEmbedder(vectors: Embedder): { embed: Embedder; texts: () => string[] } {
  const seen = new Set<string>();
  return {
    embed: async (texts) => {
      for (const text of texts) seen.add(text);
      return vectors(texts);
    },
    texts: () => [...seen],
  };
}
