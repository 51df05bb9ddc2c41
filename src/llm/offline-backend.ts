import type { ChatMessage } from './types.js';

/**
 * FNV-1a 32-bit hash: fast, stable across machines and Node versions. Used for the offline
 * embedding's feature hashing and the offline chat text.
 */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Deterministic offline embedding: hashed bag of lower-cased words plus character trigrams
 * (feature hashing with a sign bit, Weinberger et al. 2009), L2-normalised. Similar texts share
 * features, so cosine similarity is meaningful enough for offline retrieval and dedup tests.
 *
 * @example offlineEmbedding('I like green tea', 384).length // 384
 */
export function offlineEmbedding(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number): void => {
    const hash = fnv1a(feature);
    const sign = (hash & 1) === 0 ? 1 : -1;
    const slot = (hash >>> 1) % dimensions;
    vector[slot] = (vector[slot] as number) + sign * weight;
  };
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let index = 0; index + 3 <= padded.length; index++) add(`c:${padded.slice(index, index + 3)}`, 0.5);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm === 0 ? 0 : value / norm));
}

/**
 * The offline backend's chat answer: a labelled, deterministic echo of the last user message
 * (same messages → same text), so offline runs are reproducible and obviously not model output.
 *
 * @example offlineChatText([{ role: 'user', content: 'Hi there' }]) // '[offline 1a2b3c4d] Hi there'
 */
export function offlineChatText(messages: readonly ChatMessage[]): string {
  let last = '';
  let digest = 0x811c9dc5;
  for (const message of messages) {
    digest = fnv1a(`${message.role}:${message.content}`, digest);
    if (message.role === 'user') last = message.content;
  }
  const excerpt = last.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `[offline ${digest.toString(16).padStart(8, '0')}] ${excerpt}`;
}
