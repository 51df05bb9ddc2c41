import { REWARD_NAMES, type RewardServerConfig } from '../schemas/reward.js';
import { accuracyReward } from './accuracy.js';
import { consistencyReward } from './consistency.js';
import { formatReward } from './format.js';
import { personaConsistencyReward } from './persona-consistency.js';
import { personavlmReward } from './personavlm.js';
import { treeOpsReward } from './tree-ops.js';
import type { RewardFunction } from './types.js';

/**
 * Every reward function the server serves, by name (the order of `REWARD_NAMES`).
 *
 * @example REWARD_FUNCTIONS.format.requiredColumns // []
 */
export const REWARD_FUNCTIONS: Record<string, RewardFunction> = Object.assign(
  // No prototype: a request naming `constructor` or `__proto__` finds nothing, not Object's members.
  Object.create(null) as Record<string, RewardFunction>,
  Object.fromEntries(
    [
      formatReward,
      accuracyReward,
      consistencyReward,
      treeOpsReward,
      personaConsistencyReward,
      personavlmReward,
    ].map((fn) => [fn.name, fn]),
  ),
);

/** Columns every reward reads to group items and to find the question and the retrieved memory. */
const CONTEXT_COLUMNS = ['prompt_id', 'messages', 'images', 'question', 'query', 'prompt'];

/** Columns each function reads besides `completion` (a client sends only these: `memory_snapshot` alone is ~26 KB a row). */
const READS: Record<string, string[]> = {
  format: ['task', 'gt_ops'],
  accuracy: ['task', 'gt_ops', 'solution', 'choices', 'options', 'all_options', 'answer_type'],
  consistency: ['task', 'gt_ops'],
  tree_ops: ['task', 'gt_ops'],
  persona_consistency: [
    'task',
    'gt_ops',
    'profile',
    'persona',
    'core_memory',
    'user_profile',
    'big_five',
    'personality',
    'memory_snapshot',
  ],
};
READS.personavlm = [
  ...new Set([...(READS.accuracy ?? []), ...(READS.consistency ?? []), ...(READS.format ?? [])]),
];

/** The columns a reward (or a list of rewards) reads, `completion` first. */
export function columnsRead(names: readonly string[]): string[] {
  return [...new Set(['completion', ...CONTEXT_COLUMNS, ...names.flatMap((name) => READS[name] ?? [])])];
}

/**
 * The range of a reward's values with the configured weights: `/get_reward` maps `scores` into
 * [0, 1] with it (OpenRLHF's dynamic filtering keeps groups whose mean score is in (0, 1)).
 *
 * @example rewardRange('personavlm', config.functions) // [0, 2.5]
 */
export function rewardRange(name: string, functions: RewardServerConfig['functions']): [number, number] {
  if (name !== 'personavlm') return [0, 1];
  const weights = Object.values(functions.personavlm);
  return [
    weights.reduce((sum, w) => sum + Math.min(0, w), 0),
    weights.reduce((sum, w) => sum + Math.max(0, w), 0),
  ];
}

/** `GET /v1/rewards/functions` body: each function with the columns it reads, and the request limits. */
export function describeRewardFunctions(limits?: RewardServerConfig['limits']): {
  functions: Array<{
    name: string;
    description: string;
    requiredColumns: string[];
    columns: string[];
    usesJudge: boolean;
  }>;
  limits?: { bodyLimitBytes: number; maxItems: number };
} {
  return {
    functions: REWARD_NAMES.map((name) => {
      const fn = REWARD_FUNCTIONS[name] as RewardFunction;
      return {
        name: fn.name,
        description: fn.description,
        requiredColumns: fn.requiredColumns,
        columns: columnsRead([fn.name]),
        usesJudge: fn.usesJudge,
      };
    }),
    ...(limits === undefined
      ? {}
      : { limits: { bodyLimitBytes: limits.bodyLimitBytes, maxItems: limits.maxItems } }),
  };
}
