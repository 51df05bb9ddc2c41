import { createHash } from 'node:crypto';
import type { RewardItem, RewardResponse, RewardServerConfig } from '../schemas/reward.js';

/**
 * What a trainer receives for an item whose reward failed (or was not applicable).
 *
 * ms-swift sums reward functions with `nansum` (`swift/rl_core/advantage.py`): a `None` from a
 * plugin counts as 0. A judge timeout would then outrank a wrong answer that scored −0.6, and an
 * outage would flatten every group to zero spread. So the server never hands a trainer a bare
 * null: each failed item is resolved by the reward's policy from `rewards.yaml`:
 *
 * - `neutral` — the mean of the scored items of the same prompt group (this request, plus the
 *   group's scores from recent requests), so the item's advantage is 0; a group with no score at
 *   all gets one constant (zero spread, zero advantage);
 * - `fail` — the batch is refused (the plugin raises, `/get_reward` answers 503);
 * - `{ value: x }` — the fixed value x.
 *
 * A batch in which no item scored follows `whenAllFailed` (default `fail`): with nothing scored
 * there is no neutral value, and training on a constant hides an outage.
 */
export type FailurePolicy = RewardServerConfig['onFailure']['default'];

export interface TrainerRewards {
  /** Finite rewards in item order, or null when the policy refuses the batch. */
  rewards: number[] | null;
  /** The policy applied (`neutral`, `fail`, `value`), or `none` when nothing failed. */
  policy: 'none' | 'neutral' | 'fail' | 'value';
  /** Items whose reward came from the policy. */
  filled: number;
  /** Failure codes of the filled items, counted. */
  codes: Record<string, number>;
  /** Why the batch was refused (set when `rewards` is null). */
  reason?: string;
}

export function policyName(policy: FailurePolicy): 'neutral' | 'fail' | 'value' {
  return typeof policy === 'string' ? policy : 'value';
}

/** The group an item belongs to: its prompt (messages before the completion, images), else its question. */
export function groupKey(item: RewardItem): string | undefined {
  const messages = item.messages;
  if (Array.isArray(messages) && messages.length > 0) {
    const last = messages[messages.length - 1];
    const prompt = last?.role === 'assistant' ? messages.slice(0, -1) : messages;
    return digest(JSON.stringify([prompt, item.images ?? null]));
  }
  for (const field of ['prompt', 'question', 'query']) {
    const value = item[field];
    if (typeof value === 'string' && value !== '') return digest(`${field}\u0000${value}`);
  }
  return undefined;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * Scores of recent groups, per reward: lets `neutral` fill a failed item from its group's scores
 * even when the trainer sends one completion per request (OpenRLHF). Bounded (LRU by insertion).
 */
export class GroupScores {
  private readonly groups = new Map<string, { sum: number; count: number }>();
  constructor(private readonly capacity = 50_000) {}

  add(reward: string, key: string, value: number): void {
    const id = `${reward}\u0000${key}`;
    const entry = this.groups.get(id) ?? { sum: 0, count: 0 };
    this.groups.delete(id);
    entry.sum += value;
    entry.count++;
    this.groups.set(id, entry);
    if (this.groups.size > this.capacity) {
      const oldest = this.groups.keys().next().value;
      if (oldest !== undefined) this.groups.delete(oldest);
    }
  }

  get(reward: string, key: string): { sum: number; count: number } | undefined {
    return this.groups.get(`${reward}\u0000${key}`);
  }
}

/** The policy configured for a request's reward (a list of rewards is keyed by its names joined with `+`). */
export function policyFor(config: RewardServerConfig['onFailure'], reward: string | string[]): FailurePolicy {
  const key = Array.isArray(reward) ? reward.join('+') : reward;
  return config.rewards[key] ?? config.default;
}

/**
 * Resolves every null of `response.rewards` by the policy; records the scored items in `history`.
 *
 * @example
 * trainerRewards(response, items, 'accuracy', config.onFailure, new GroupScores()).rewards // [1, 0.5, 0.5]
 */
export function trainerRewards(
  response: RewardResponse,
  items: readonly RewardItem[],
  reward: string | string[],
  config: RewardServerConfig['onFailure'],
  history?: GroupScores,
): TrainerRewards {
  const rewardKey = Array.isArray(reward) ? reward.join('+') : reward;
  const values = response.rewards;
  const keys = items.map((item) => groupKey(item));
  const failedIndexes = values.flatMap((value, index) => (value === null ? [index] : []));
  const codes: Record<string, number> = {};
  const codeAt = new Map<number, string>();
  for (const error of response.errors) if (!codeAt.has(error.index)) codeAt.set(error.index, error.code);
  for (const index of failedIndexes) {
    const code = codeAt.get(index) ?? 'failed';
    codes[code] = (codes[code] ?? 0) + 1;
  }
  // Group sums from this request (history is updated after the fill, so it never counts twice).
  const local = new Map<string, { sum: number; count: number }>();
  let batchSum = 0;
  let batchCount = 0;
  values.forEach((value, index) => {
    if (value === null) return;
    batchSum += value;
    batchCount++;
    const key = keys[index];
    if (key === undefined) return;
    const entry = local.get(key) ?? { sum: 0, count: 0 };
    entry.sum += value;
    entry.count++;
    local.set(key, entry);
  });
  const remember = () => {
    if (history === undefined) return;
    values.forEach((value, index) => {
      const key = keys[index];
      if (value !== null && key !== undefined) history.add(rewardKey, key, value);
    });
  };
  if (failedIndexes.length === 0) {
    remember();
    return { rewards: values as number[], policy: 'none', filled: 0, codes };
  }
  const policy = policyFor(config, reward);
  const summary = Object.entries(codes)
    .map(([code, count]) => `${count}× ${code}`)
    .join(', ');
  const refuse = (reason: string): TrainerRewards => ({
    rewards: null,
    policy: 'fail',
    filled: 0,
    codes,
    reason,
  });
  if (policy === 'fail') {
    remember();
    return refuse(`${failedIndexes.length} of ${values.length} items failed (${summary}); policy "fail"`);
  }
  const groupMean = (index: number): number | undefined => {
    const key = keys[index];
    if (key === undefined) return batchCount > 0 ? batchSum / batchCount : undefined;
    const here = local.get(key);
    const before = history?.get(rewardKey, key);
    const sum = (here?.sum ?? 0) + (before?.sum ?? 0);
    const count = (here?.count ?? 0) + (before?.count ?? 0);
    return count > 0 ? sum / count : undefined;
  };
  const anyScored = batchCount > 0 || failedIndexes.some((index) => groupMean(index) !== undefined);
  if (!anyScored && config.whenAllFailed === 'fail' && typeof policy === 'string') {
    return refuse(
      `every item of the batch failed (${summary}); onFailure.whenAllFailed is "fail" (nothing scored to be neutral against)`,
    );
  }
  const constant = batchCount > 0 ? batchSum / batchCount : 0;
  const filled = values.map((value, index) => {
    if (value !== null) return value;
    if (typeof policy !== 'string') return policy.value;
    // A group with no score at all takes one constant: zero spread, zero advantage.
    return round(groupMean(index) ?? constant);
  });
  remember();
  return { rewards: filled, policy: policyName(policy), filled: failedIndexes.length, codes };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
