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
 * - `neutral` — the mean of the scored items of the same prompt group (ms-swift's `prompt_id`,
 *   else the prompt) in the same request, so the item's advantage within its group is 0; a group
 *   with no score at all gets one constant (zero spread, zero advantage). Scores never leak from
 *   one request into another, except OpenRLHF groups the trainer declared (`group_size`, see
 *   `group-gate.ts`);
 * - `fail` — the batch is refused (the plugin raises, `/get_reward` answers 503);
 * - `{ value: x }` — the fixed value x.
 *
 * A batch in which no item scored, or no judge call answered, follows `whenAllFailed` (default
 * `fail`): with nothing scored there is no neutral value, and training on a constant or on rule
 * scores alone hides an outage.
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

/**
 * The group an item belongs to, within one request: ms-swift's `prompt_id` column when the trainer
 * sends it (it numbers the distinct prompts of one training step), else the conversation before
 * the model's first turn (so the retrieval turns of a multi-turn trajectory never make it a group
 * of its own) with its images, else its `prompt`/`question`/`query` text.
 *
 * @example groupKey({ completion: 'c', prompt_id: 'prompt_3' }) === groupKey({ completion: 'd', prompt_id: 'prompt_3' }) // true
 */
export function groupKey(item: RewardItem): string | undefined {
  const promptId = item.prompt_id;
  if ((typeof promptId === 'string' && promptId !== '') || typeof promptId === 'number') {
    return digest(`prompt_id\u0000${String(promptId)}`);
  }
  const messages = item.messages;
  if (Array.isArray(messages) && messages.length > 0) {
    const firstTurn = messages.findIndex((message) => message?.role === 'assistant');
    const prompt = firstTurn < 0 ? messages : messages.slice(0, firstTurn);
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

/** Scores of a group gathered outside this request (the OpenRLHF group gate), by group key. */
export type OutsideScores = ReadonlyMap<string, { sum: number; count: number }>;

/** The policy configured for a request's reward (a list of rewards is keyed by its names joined with `+`). */
export function policyFor(config: RewardServerConfig['onFailure'], reward: string | string[]): FailurePolicy {
  const key = Array.isArray(reward) ? reward.join('+') : reward;
  return config.rewards[key] ?? config.default;
}

/**
 * Resolves every null of `response.rewards` by the policy. `neutral` fills an item with the mean
 * of the scored items of its own prompt group in this request (plus `outside` scores of the same
 * group when the trainer said the group spans requests), so its advantage within the group is 0.
 * A batch in which nothing scored — or in which every judge call failed, so only rule scores (a
 * completion without an answer scores 0 without the judge) are left — follows `whenAllFailed`.
 *
 * @example
 * trainerRewards(response, items, 'accuracy', config.onFailure).rewards // [1, 0, 0.5]
 */
export function trainerRewards(
  response: RewardResponse,
  items: readonly RewardItem[],
  reward: string | string[],
  config: RewardServerConfig['onFailure'],
  outside?: OutsideScores,
): TrainerRewards {
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
  if (failedIndexes.length === 0) return { rewards: values as number[], policy: 'none', filled: 0, codes };
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
    return refuse(`${failedIndexes.length} of ${values.length} items failed (${summary}); policy "fail"`);
  }
  const groupMean = (index: number): number | undefined => {
    const key = keys[index];
    if (key === undefined) return undefined;
    const here = local.get(key);
    const there = outside?.get(key);
    const count = (here?.count ?? 0) + (there?.count ?? 0);
    return count > 0 ? ((here?.sum ?? 0) + (there?.sum ?? 0)) / count : undefined;
  };
  const usage = response.usage;
  const judgeFailed = usage.judge_failed ?? 0;
  const verdicts = usage.judge_items + usage.cache_hits - judgeFailed;
  // Scores from the group's other requests (OpenRLHF) prove the judge answered them.
  const outsideScored = [...(outside?.values() ?? [])].some((entry) => entry.count > 0);
  // Timeouts are judge items too (only judge calls can outlive the request's deadline).
  const judgeDown = (judgeFailed > 0 || (codes.timeout ?? 0) > 0) && verdicts <= 0 && !outsideScored;
  const anyScored = batchCount > 0 || failedIndexes.some((index) => groupMean(index) !== undefined);
  if (config.whenAllFailed === 'fail' && typeof policy === 'string') {
    if (!anyScored) {
      return refuse(
        `every item of the batch failed (${summary}); onFailure.whenAllFailed is "fail" (nothing scored to be neutral against)`,
      );
    }
    if (judgeDown) {
      return refuse(
        `the judge answered none of the judge items of the batch (${summary}): it is down, failing or too slow; only rule scores are left, so onFailure.whenAllFailed "fail" refuses the batch`,
      );
    }
  }
  // A group with nothing scored anywhere takes one constant: zero spread, zero advantage within it.
  const constant = batchCount > 0 ? batchSum / batchCount : 0;
  const filled = values.map((value, index) => {
    if (value !== null) return value;
    if (typeof policy !== 'string') return policy.value;
    // Not rounded: the fill is the group's mean exactly, so its advantage is exactly 0.
    return groupMean(index) ?? constant;
  });
  return { rewards: filled, policy: policyName(policy), filled: failedIndexes.length, codes };
}
