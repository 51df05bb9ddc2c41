import type { RewardResponse } from '../schemas/reward.js';
import type { TrainerRewards } from './failure-policy.js';
import type { JudgeStats } from './judge.js';

/**
 * Prometheus text metrics for the reward server, kept in plain maps (no client library: a few
 * counters and one histogram family are all `/metrics` needs).
 *
 * @example const metrics = createRewardMetrics(); metrics.observeRequest('/v1/rewards', 200, 0.004); metrics.render(stats)
 */
export interface RewardMetrics {
  observeRequest(endpoint: string, status: number, seconds: number): void;
  observeResponse(response: RewardResponse): void;
  observeError(code: string): void;
  /** Items resolved by the `onFailure` policy (and batches it refused). */
  observeFallback(reward: string, trainer: TrainerRewards): void;
  render(judge: JudgeStats): string;
}

/** Latency buckets in seconds, from sub-millisecond rule rewards to slow judge batches. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

const label = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function createRewardMetrics(): RewardMetrics {
  const requests = new Map<string, number>();
  const latency = new Map<string, Histogram>();
  const rewardSums = new Map<string, { sum: number; count: number; nulls: number }>();
  const errors = new Map<string, number>();
  const fallbacks = new Map<string, number>();
  const refused = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
  return {
    observeRequest(endpoint, status, seconds) {
      bump(requests, `${endpoint}\u0000${status}`);
      let histogram = latency.get(endpoint);
      if (histogram === undefined) {
        histogram = { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
        latency.set(endpoint, histogram);
      }
      histogram.sum += seconds;
      histogram.count++;
      for (let index = 0; index < BUCKETS.length; index++) {
        if (seconds <= (BUCKETS[index] as number))
          histogram.counts[index] = (histogram.counts[index] ?? 0) + 1;
      }
    },
    observeResponse(response) {
      for (const [name, values] of Object.entries(response.components)) {
        let entry = rewardSums.get(name);
        if (entry === undefined) {
          entry = { sum: 0, count: 0, nulls: 0 };
          rewardSums.set(name, entry);
        }
        for (const value of values) {
          if (value === null) entry.nulls++;
          else {
            entry.sum += value;
            entry.count++;
          }
        }
      }
      for (const error of response.errors) bump(errors, error.code);
    },
    observeFallback(reward, trainer) {
      if (trainer.rewards === null) bump(refused, reward);
      for (const [code, count] of Object.entries(trainer.codes))
        bump(fallbacks, `${reward}\u0000${trainer.policy}\u0000${code}`, count);
    },
    observeError(code) {
      bump(errors, code);
    },
    render(judge) {
      const lines: string[] = [];
      lines.push('# HELP pf_reward_requests_total HTTP requests by endpoint and status.');
      lines.push('# TYPE pf_reward_requests_total counter');
      for (const [key, value] of requests) {
        const [endpoint, status] = key.split('\u0000');
        lines.push(
          `pf_reward_requests_total{endpoint="${label(endpoint ?? '')}",status="${status}"} ${value}`,
        );
      }
      lines.push('# HELP pf_reward_request_duration_seconds Request latency by endpoint.');
      lines.push('# TYPE pf_reward_request_duration_seconds histogram');
      for (const [endpoint, histogram] of latency) {
        const name = `endpoint="${label(endpoint)}"`;
        BUCKETS.forEach((bound, index) => {
          lines.push(
            `pf_reward_request_duration_seconds_bucket{${name},le="${bound}"} ${histogram.counts[index]}`,
          );
        });
        lines.push(`pf_reward_request_duration_seconds_bucket{${name},le="+Inf"} ${histogram.count}`);
        lines.push(`pf_reward_request_duration_seconds_sum{${name}} ${histogram.sum}`);
        lines.push(`pf_reward_request_duration_seconds_count{${name}} ${histogram.count}`);
      }
      lines.push('# HELP pf_reward_mean Mean of non-null reward values per function since start.');
      lines.push('# TYPE pf_reward_mean gauge');
      for (const [name, entry] of rewardSums) {
        lines.push(
          `pf_reward_mean{reward="${label(name)}"} ${entry.count === 0 ? 'NaN' : entry.sum / entry.count}`,
        );
      }
      lines.push('# HELP pf_reward_values_total Reward values returned per function, by null or not.');
      lines.push('# TYPE pf_reward_values_total counter');
      for (const [name, entry] of rewardSums) {
        lines.push(`pf_reward_values_total{reward="${label(name)}",null="false"} ${entry.count}`);
        lines.push(`pf_reward_values_total{reward="${label(name)}",null="true"} ${entry.nulls}`);
      }
      lines.push('# HELP pf_reward_judge_calls_total Judge calls (batches) by outcome.');
      lines.push('# TYPE pf_reward_judge_calls_total counter');
      lines.push(`pf_reward_judge_calls_total{outcome="ok"} ${judge.calls - judge.failedCalls}`);
      lines.push(`pf_reward_judge_calls_total{outcome="failed"} ${judge.failedCalls}`);
      lines.push('# HELP pf_reward_judge_items_total Items sent to the judge.');
      lines.push('# TYPE pf_reward_judge_items_total counter');
      lines.push(`pf_reward_judge_items_total ${judge.items}`);
      lines.push(
        '# HELP pf_reward_judge_single_retries_total Items re-asked alone after their packed judge call failed.',
      );
      lines.push('# TYPE pf_reward_judge_single_retries_total counter');
      lines.push(`pf_reward_judge_single_retries_total ${judge.singleRetries}`);
      lines.push('# HELP pf_reward_judge_cache_lookups_total Judge cache lookups by result.');
      lines.push('# TYPE pf_reward_judge_cache_lookups_total counter');
      lines.push(`pf_reward_judge_cache_lookups_total{result="hit"} ${judge.cacheHits}`);
      lines.push(`pf_reward_judge_cache_lookups_total{result="miss"} ${judge.cacheMisses}`);
      const lookups = judge.cacheHits + judge.cacheMisses;
      lines.push('# HELP pf_reward_judge_cache_hit_ratio Judge cache hit rate since start.');
      lines.push('# TYPE pf_reward_judge_cache_hit_ratio gauge');
      lines.push(`pf_reward_judge_cache_hit_ratio ${lookups === 0 ? 0 : judge.cacheHits / lookups}`);
      lines.push('# HELP pf_reward_errors_total Null rewards and rejected requests by code.');
      lines.push('# TYPE pf_reward_errors_total counter');
      for (const [code, value] of errors)
        lines.push(`pf_reward_errors_total{code="${label(code)}"} ${value}`);
      lines.push(
        '# HELP pf_reward_fallback_items_total Failed items handed to trainers by the onFailure policy, by reward, policy and code.',
      );
      lines.push('# TYPE pf_reward_fallback_items_total counter');
      for (const [key, value] of fallbacks) {
        const [reward, policy, code] = key.split('\u0000');
        lines.push(
          `pf_reward_fallback_items_total{reward="${label(reward ?? '')}",policy="${policy}",code="${label(code ?? '')}"} ${value}`,
        );
      }
      lines.push(
        '# HELP pf_reward_refused_batches_total Batches refused by the onFailure policy (the trainer raises).',
      );
      lines.push('# TYPE pf_reward_refused_batches_total counter');
      for (const [reward, value] of refused)
        lines.push(`pf_reward_refused_batches_total{reward="${label(reward)}"} ${value}`);
      return `${lines.join('\n')}\n`;
    },
  };
}
