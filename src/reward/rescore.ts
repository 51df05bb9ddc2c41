import { InputError } from '../errors/index.js';
import type { RewardItem, RewardResponse } from '../schemas/reward.js';
import { readJsonl, writeJsonl } from '../util/fs.js';
import type { Judge } from './judge.js';
import { type ScoreRewardsOptions, scoreRewards } from './score-rewards.js';
import { contentText } from './text.js';

export interface RescoreOptions {
  /** Reward name or names (as in `/v1/rewards`). */
  reward: string | string[];
  weights?: number[];
  judge: Judge;
  functions: ScoreRewardsOptions['functions'];
  /** Rows scored per batch (one `scoreRewards` call). @default 256 */
  batchSize?: number;
  /** Per-batch deadline. @default 600000 */
  timeoutMs?: number;
  /** Where to write the rows with their new scores (JSONL); nothing is written when unset. */
  out?: string;
}

export interface RescoreSummary {
  rows: number;
  /** Mean of the non-null values per reward / component. */
  mean: Record<string, number | null>;
  nulls: Record<string, number>;
  /** Null counts by error code. */
  errors: Record<string, number>;
  judgeCalls: number;
  cacheHits: number;
  offline: boolean;
  scorers: Record<string, string>;
}

/**
 * One saved rollout row (ms-swift `completions.jsonl`: `prompt`, `completion`, reward columns,
 * plus any dataset columns; or an RL row with `messages`) as a reward item.
 */
export function rolloutToItem(row: unknown, index: number): RewardItem {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    throw new InputError('rollouts', `row ${index + 1} is not an object`);
  }
  const record = row as Record<string, unknown>;
  let completion = record.completion;
  let messages = record.messages;
  if (Array.isArray(completion)) {
    const turns = completion as Array<{ role?: unknown; content?: unknown }>;
    messages ??= turns;
    completion = contentText([...turns].reverse().find((turn) => turn.role === 'assistant')?.content);
  }
  if (typeof completion !== 'string') {
    throw new InputError('rollouts', `row ${index + 1} has no completion string`, { field: 'completion' });
  }
  if (messages === undefined && typeof record.prompt === 'string') {
    messages = [{ role: 'user', content: record.prompt }];
  } else if (messages === undefined && Array.isArray(record.prompt)) {
    messages = record.prompt;
  }
  return {
    ...record,
    completion,
    ...(Array.isArray(messages) ? { messages: messages as RewardItem['messages'] } : {}),
  } as RewardItem;
}

/**
 * Re-scores saved rollouts with the current judge (and its cache): `persona-forge rescore
 * <rollouts.jsonl> --reward …`. Each output row is the input row plus `pf_reward` and
 * `pf_components` (and `pf_errors` when any).
 *
 * @example
 * const summary = await rescoreRollouts('output/v1/completions.jsonl', { reward: 'personavlm', judge, functions, out: 'rescored.jsonl' });
 */
export async function rescoreRollouts(file: string, options: RescoreOptions): Promise<RescoreSummary> {
  const batchSize = options.batchSize ?? 256;
  const output: unknown[] = [];
  const sums = new Map<string, { sum: number; count: number; nulls: number }>();
  const errors: Record<string, number> = {};
  const summary: RescoreSummary = {
    rows: 0,
    mean: {},
    nulls: {},
    errors,
    judgeCalls: 0,
    cacheHits: 0,
    offline: false,
    scorers: {},
  };
  let batch: Array<{ row: unknown; item: RewardItem }> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const response: RewardResponse = await scoreRewards(
      {
        reward: options.reward,
        ...(options.weights === undefined ? {} : { weights: options.weights }),
        items: batch.map((entry) => entry.item),
      },
      { judge: options.judge, functions: options.functions, timeoutMs: options.timeoutMs ?? 600_000 },
    );
    batch.forEach((entry, index) => {
      const components = Object.fromEntries(
        Object.entries(response.components).map(([name, values]) => [name, values[index] ?? null]),
      );
      const rowErrors = response.errors
        .filter((error) => error.index === index)
        .map(({ index: _, ...rest }) => rest);
      output.push({
        ...(entry.row as object),
        pf_reward: response.rewards[index] ?? null,
        pf_components: components,
        ...(rowErrors.length > 0 ? { pf_errors: rowErrors } : {}),
      });
    });
    for (const [name, values] of Object.entries(response.components)) {
      const entry = sums.get(name) ?? { sum: 0, count: 0, nulls: 0 };
      sums.set(name, entry);
      for (const value of values) {
        if (value === null) entry.nulls++;
        else {
          entry.sum += value;
          entry.count++;
        }
      }
    }
    for (const error of response.errors) errors[error.code] = (errors[error.code] ?? 0) + 1;
    summary.judgeCalls += response.usage.judge_calls;
    summary.cacheHits += response.usage.cache_hits;
    summary.offline ||= response.usage.offline;
    summary.scorers = response.usage.scorers;
    batch = [];
  };
  for await (const row of readJsonl(file)) {
    batch.push({ row, item: rolloutToItem(row, summary.rows) });
    summary.rows++;
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  for (const [name, entry] of sums) {
    summary.mean[name] = entry.count === 0 ? null : Math.round((entry.sum / entry.count) * 10_000) / 10_000;
    summary.nulls[name] = entry.nulls;
  }
  if (options.out !== undefined) await writeJsonl(options.out, output);
  return summary;
}
