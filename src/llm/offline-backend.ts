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
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    // The word's features in the order they were always added, so the sums are bit for bit the same.
    const { slots, weights } = wordFeatures(word, dimensions);
    for (let i = 0; i < slots.length; i++)
      vector[slots[i] as number] = (vector[slots[i] as number] as number) + (weights[i] as number);
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += (vector[i] as number) * (vector[i] as number);
  norm = Math.sqrt(norm);
  const out = new Array<number>(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = norm === 0 ? 0 : (vector[i] as number) / norm;
  return out;
}

/** One word's hashed features: the word (weight 1), then its character trigrams (0.5 each), signed. */
interface WordFeatures {
  slots: Int32Array;
  weights: Float64Array;
}

/** Per dimension count, each word's features, hashed once per thread (texts repeat most words). */
const featureCache = new Map<number, Map<string, WordFeatures>>();
const FEATURE_CACHE = 100_000;

function wordFeatures(word: string, dimensions: number): WordFeatures {
  let cache = featureCache.get(dimensions);
  if (cache === undefined) {
    cache = new Map();
    featureCache.set(dimensions, cache);
  }
  const known = cache.get(word);
  if (known !== undefined) return known;
  const padded = ` ${word} `;
  const features = [`w:${word}`];
  for (let index = 0; index + 3 <= padded.length; index++)
    features.push(`c:${padded.slice(index, index + 3)}`);
  const slots = new Int32Array(features.length);
  const weights = new Float64Array(features.length);
  features.forEach((feature, i) => {
    const hash = fnv1a(feature);
    slots[i] = (hash >>> 1) % dimensions;
    weights[i] = ((hash & 1) === 0 ? 1 : -1) * (i === 0 ? 1 : 0.5);
  });
  if (cache.size >= FEATURE_CACHE) cache.clear();
  const entry = { slots, weights };
  cache.set(word, entry);
  return entry;
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
