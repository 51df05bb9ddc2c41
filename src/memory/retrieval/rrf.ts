import type { ScoredId } from './bm25.js';

/**
 * Reciprocal rank fusion (M²A §3): `score(d) = Σ_paths 1/(k + rank_path(d))`, ranks 1-based,
 * k = 60 by default (config `memory.retrieval.rrfK`). Ties break by the best single-path rank,
 * then by id, so fusion is deterministic.
 *
 * @example
 * fuseRrf([[{ id: 'a', score: 3 }], [{ id: 'b', score: 1 }, { id: 'a', score: 0.5 }]], 60)[0]?.id; // 'a'
 */
export function fuseRrf(lists: ReadonlyArray<readonly ScoredId[]>, k: number): ScoredId[] {
  const fused = new Map<string, { score: number; best: number }>();
  for (const list of lists) {
    list.forEach((item, index) => {
      const rank = index + 1;
      const current = fused.get(item.id) ?? { score: 0, best: Number.POSITIVE_INFINITY };
      current.score += 1 / (k + rank);
      current.best = Math.min(current.best, rank);
      fused.set(item.id, current);
    });
  }
  return [...fused.entries()]
    .sort(
      ([leftId, left], [rightId, right]) =>
        right.score - left.score ||
        left.best - right.best ||
        (leftId < rightId ? -1 : leftId > rightId ? 1 : 0),
    )
    .map(([id, { score }]) => ({ id, score }));
}
