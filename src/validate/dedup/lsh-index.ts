import { estimateJaccard } from './minhash.js';

/** A stored item: its id, owner and signature. */
interface Item {
  id: string;
  userId: string;
  signature: Uint32Array;
}

/** A near-duplicate found when adding an item. */
export interface NearDuplicate {
  id: string;
  userId: string;
  duplicateOf: string;
  duplicateOfUser: string;
  similarity: number;
}

/**
 * Banded LSH over MinHash signatures (Indyk–Motwani; Leskovec et al., *Mining of Massive
 * Datasets* §3.4): items sharing any band bucket become candidates, confirmed by the estimated
 * Jaccard. `add` first queries, then inserts, so each duplicate points at an earlier item.
 *
 * @example const index = createLshIndex(8, 0.9); index.add('t1', 'u1', signature) // null or a NearDuplicate
 */
export function createLshIndex(bands: number, threshold: number) {
  // A bucket holds one item index, or an array once a second item lands in it (most never do).
  const buckets: Array<Map<number, number | number[]>> = Array.from({ length: bands }, () => new Map());
  const items: Item[] = [];
  return {
    get size() {
      return items.length;
    },
    add(id: string, userId: string, signature: Uint32Array): NearDuplicate | null {
      const rows = signature.length / bands;
      const keys = new Uint32Array(bands);
      let best: NearDuplicate | null = null;
      // Most items share no bucket with anything: allocate the dedup set only on a first hit.
      let seen: Set<number> | null = null;
      const consider = (candidate: number) => {
        seen ??= new Set<number>();
        if (seen.has(candidate)) return;
        seen.add(candidate);
        const other = items[candidate]!;
        const similarity = estimateJaccard(signature, other.signature);
        if (similarity >= threshold && (best === null || similarity > best.similarity)) {
          best = { id, userId, duplicateOf: other.id, duplicateOfUser: other.userId, similarity };
        }
      };
      for (let band = 0; band < bands; band++) {
        let key = 0x811c9dc5;
        for (let r = band * rows; r < (band + 1) * rows; r++)
          key = Math.imul(key ^ signature[r]!, 0x01000193) >>> 0;
        keys[band] = key;
        const bucket = buckets[band]!.get(key);
        if (bucket === undefined) continue;
        if (typeof bucket === 'number') consider(bucket);
        else for (const candidate of bucket) consider(candidate);
      }
      const position = items.length;
      items.push({ id, userId, signature });
      for (let band = 0; band < bands; band++) {
        const key = keys[band]!;
        const bucket = buckets[band]!.get(key);
        if (bucket === undefined) buckets[band]!.set(key, position);
        else if (typeof bucket === 'number') buckets[band]!.set(key, [bucket, position]);
        else bucket.push(position);
      }
      return best;
    },
  };
}
