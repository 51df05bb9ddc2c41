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
 * (`quotaRank`), so the choice is deterministic and independent of input order. `keys` gives each
 * id's `quotaKey` already computed (parallel to each task's ids, e.g. by export's worker threads).
 *
 * @example selectByQuota(new Map([['a', ['x', 'y']]]), { a: 1 }, 42) // Set { 'x' } or Set { 'y' }
 */
export function selectByQuota(
  idsByTask: Map<string, string[]>,
  quotas: Record<string, number>,
  seed: number,
  keys?: ReadonlyMap<string, ArrayLike<number>>,
): Set<string> {
  const keep = new Set<string>();
  for (const [task, ids] of idsByTask) {
    const rank = (id: string) => quotaRank(seed, id);
    for (const i of keptPositions(ids, quotas[task] ?? 0, rank, keys?.get(task))) keep.add(ids[i] as string);
  }
  return keep;
}

/**
 * The positions in `ids` of the `quota` ids of smallest `rank` (ties in rank by position).
 * `keys`, when given, holds each id's `quotaKey(rank(id))`: ranks are then computed only for ids
 * sharing the quota-th smallest key.
 *
 * @example keptPositions(['x', 'y', 'z'], 2, (id) => quotaRank(42, id)) // two of 0, 1, 2
 */
export function keptPositions(
  ids: readonly string[],
  quota: number,
  rank: (id: string) => string,
  keys?: ArrayLike<number>,
): number[] {
  if (quota <= 0) return [];
  if (quota >= ids.length) return ids.map((_, i) => i);
  // The quota-th smallest rank by its first 48 bits (exact in a double; hex order is numeric
  // order): every id below it is kept, and those sharing it are ordered by their whole rank.
  const values = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) values[i] = keys?.[i] ?? quotaKey(rank(ids[i] as string));
  const threshold = values.slice().sort()[quota - 1] as number;
  const kept: number[] = [];
  const tied: Array<{ at: number; rank: string }> = [];
  for (let i = 0; i < ids.length; i++) {
    if ((values[i] as number) < threshold) kept.push(i);
    else if (values[i] === threshold) tied.push({ at: i, rank: rank(ids[i] as string) });
  }
  tied.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.at - b.at));
  for (const { at } of tied.slice(0, quota - kept.length)) kept.push(at);
  return kept;
}

/**
 * A rank's first 12 hex digits (48 bits) as a number: the order of keys is the order of ranks,
 * but for ranks that share those digits.
 */
export function quotaKey(hex: string): number {
  let value = 0;
  for (let i = 0; i < 12; i++) {
    const code = hex.charCodeAt(i);
    value = value * 16 + (code <= 57 ? code - 48 : (code | 32) - 87);
  }
  return value;
}
