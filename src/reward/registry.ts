import { REWARD_NAMES } from '../schemas/reward.js';
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

/** `GET /v1/rewards/functions` body. */
export function describeRewardFunctions(): {
  functions: Array<{ name: string; description: string; requiredColumns: string[]; usesJudge: boolean }>;
} {
  return {
    functions: REWARD_NAMES.map((name) => {
      const fn = REWARD_FUNCTIONS[name] as RewardFunction;
      return {
        name: fn.name,
        description: fn.description,
        requiredColumns: fn.requiredColumns,
        usesJudge: fn.usesJudge,
      };
    }),
  };
}
