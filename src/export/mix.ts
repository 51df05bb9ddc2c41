import type { MixConfig } from '../schemas/export-config.js';
import { sha256 } from '../util/hash.js';

/**
 * Quotas per task for a mix. `ratio`: the largest total N such that N·w_t ≤ available_t for
 * every task with weight > 0 and data (weights renormalised over those), quota_t = round(N·w_t);
 * `all`: every available sample of a task with weight > 0. `maxPerSplit` scales quotas down.
 *
 * @example mixQuotas({ a: 100, b: 10 }, { mode: 'ratio', weights: { a: 0.5, b: 0.5 }, maxPerSplit: null }) // { a: 10, b: 10 }
 */
export function mixQuotas(available: Record<string, number>, mix: MixConfig): Record<string, number> {
  const tasks = Object.keys(available)
    .filter((task) => (mix.weights[task] ?? 0) > 0 && (available[task] ?? 0) > 0)
    .sort();
  const quotas: Record<string, number> = {};
  if (tasks.length === 0) return quotas;
  if (mix.mode === 'all') {
    for (const task of tasks) quotas[task] = available[task]!;
  } else {
    const sum = tasks.reduce((total, task) => total + mix.weights[task]!, 0);
    const total = Math.min(...tasks.map((task) => available[task]! / (mix.weights[task]! / sum)));
    for (const task of tasks)
      quotas[task] = Math.min(available[task]!, Math.max(1, Math.round((total * mix.weights[task]!) / sum)));
  }
  const count = Object.values(quotas).reduce((a, b) => a + b, 0);
  if (mix.maxPerSplit !== null && count > mix.maxPerSplit) {
    const scale = mix.maxPerSplit / count;
    for (const task of tasks) quotas[task] = Math.floor(quotas[task]! * scale);
  }
  return quotas;
}

/** A candidate's place in the seeded order `selectByQuota` keeps from (sha256 of seed and id, hex). */
export function quotaRank(seed: number, id: string): string {
  return sha256(`${seed}\u241f${id}`);
}

/**
 * Picks which candidate ids to keep: per task, the `quota` ids with the smallest seeded hash
 * (`quotaRank`), so the choice is deterministic and independent of input order. `ranks` gives
 * the ranks already computed (parallel to each task's ids, e.g. by export's worker threads).
 *
 * @example selectByQuota(new Map([['a', ['x', 'y']]]), { a: 1 }, 42) // Set { 'x' } or Set { 'y' }
 */
export function selectByQuota(
  idsByTask: Map<string, string[]>,
  quotas: Record<string, number>,
  seed: number,
  ranks?: ReadonlyMap<string, readonly string[]>,
): Set<string> {
  const keep = new Set<string>();
  for (const [task, ids] of idsByTask) {
    const quota = quotas[task] ?? 0;
    if (quota === 0) continue;
    const given = ranks?.get(task);
    const ranked = ids
      .map((id, i) => ({ id, rank: given?.[i] ?? quotaRank(seed, id) }))
      .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
    for (const { id } of ranked.slice(0, quota)) keep.add(id);
  }
  return keep;
}
