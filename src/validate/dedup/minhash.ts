import { createRng } from '../../util/rng.js';

/** FNV-1a 32-bit hash of a string (shingle → integer). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** FNV-1a hashes of the lower-cased words (letters/digits runs) of a text, without building strings. */
function wordHashes(text: string): number[] {
  const out: number[] = [];
  let hash = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    let isWord: boolean;
    if (code < 128) {
      if (code >= 65 && code <= 90) code += 32;
      isWord = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    } else {
      const char = text[i]!;
      isWord = WORD_CHAR.test(char);
      if (isWord) code = char.toLowerCase().charCodeAt(0);
    }
    if (isWord) {
      hash = Math.imul(hash ^ code, 0x01000193);
      inWord = true;
    } else if (inWord) {
      out.push(hash >>> 0);
      hash = 0x811c9dc5;
      inWord = false;
    }
  }
  if (inWord) out.push(hash >>> 0);
  return out;
}

/**
 * Hashes of the lower-cased word shingles of `size` words (the whole text as one shingle when
 * shorter), computed from per-word hashes without building shingle strings.
 *
 * @example shingleHashes('a b c d', 3).length // 2
 */
export function shingleHashes(text: string, size: number): Uint32Array {
  const hashes = wordHashes(text);
  if (hashes.length === 0) return new Uint32Array(0);
  const count = Math.max(1, hashes.length - size + 1);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let hash = 0x811c9dc5;
    for (let j = i; j < Math.min(i + size, hashes.length); j++)
      hash = Math.imul(hash ^ hashes[j]!, 0x01000193) >>> 0;
    out[i] = hash;
  }
  return out;
}

/** Lower-cased word shingles of `size` words (the whole text as one shingle when shorter). */
export function wordShingles(text: string, size: number): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length <= size) return words.length === 0 ? [] : [words.join(' ')];
  const out: string[] = [];
  for (let i = 0; i + size <= words.length; i++) out.push(words.slice(i, i + size).join(' '));
  return out;
}

/**
 * MinHash signatures (Broder 1997): `numPerm` universal hashes `a·x + b mod 2^32` with odd `a`,
 * coefficients drawn from a fixed seed so signatures are comparable across runs.
 *
 * @example const hasher = createMinHasher(64); hasher.signature(['a b c']).length // 64
 */
export function createMinHasher(numPerm: number) {
  const rng = createRng('minhash', numPerm);
  const a = new Uint32Array(numPerm);
  const b = new Uint32Array(numPerm);
  for (let i = 0; i < numPerm; i++) {
    a[i] = (rng.int(1, 0x7fffffff) * 2 + 1) >>> 0;
    b[i] = rng.int(0, 0x7fffffff) >>> 0;
  }
  return {
    numPerm,
    /** Signature of a shingle set; an empty set gives all-0xffffffff. */
    signature(shingles: readonly string[]): Uint32Array {
      return this.signatureOfHashes(Uint32Array.from(shingles, fnv1a));
    },
    /** Signature of hashed shingles (see `shingleHashes`). */
    signatureOfHashes(hashes: Uint32Array): Uint32Array {
      const signature = new Uint32Array(numPerm).fill(0xffffffff);
      for (let s = 0; s < hashes.length; s++) {
        const x = hashes[s]!;
        for (let i = 0; i < numPerm; i++) {
          const value = (Math.imul(a[i]!, x) + b[i]!) >>> 0;
          if (value < signature[i]!) signature[i] = value;
        }
      }
      return signature;
    },
  };
}

/** Estimated Jaccard similarity: the share of equal signature positions. */
export function estimateJaccard(left: Uint32Array, right: Uint32Array): number {
  let equal = 0;
  for (let i = 0; i < left.length; i++) if (left[i] === right[i]) equal++;
  return equal / left.length;
}
