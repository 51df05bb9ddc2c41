import { offlineEmbedding } from '../../llm/offline-backend.js';
import type { Embedder } from '../types.js';

/**
 * The llm layer's deterministic offline embedding (hashed words + character trigrams) as an
 * `Embedder`, for tests and benchmarks that run without an llm client. Pipelines embed through
 * `embedderFromLlm(llm)`, which serves the same vectors when the role has no endpoint.
 *
 * @example
 * const vectors = await createOfflineEmbedder(384)(['spicy hotpot']);
 */
export function createOfflineEmbedder(dimensions = 384): Embedder {
  return async (texts) => texts.map((text) => offlineEmbedding(text, dimensions));
}
