/**
 * The reward server: reward functions (SPEC.md §1–2), the judge, the HTTP app and its socket
 * server, memory retrieval for multi-turn rollouts, and offline re-scoring of saved rollouts.
 */
export { createRewardApp, type RewardApp, type RewardAppOptions } from './app.js';
export {
  type CreateLlm,
  type RescoreFileOptions,
  rescoreFile,
  type ServeRewardsOptions,
  serveRewards,
} from './commands.js';
export { createConfiguredJudge } from './configured-judge.js';
export { formatScore } from './format.js';
export { createJudge, type Judge, type JudgeOptions, type JudgeOutcome, type JudgeStats } from './judge.js';
export { createJudgeCache, type JudgeCache, type JudgeCacheOptions, loadJudgeCache } from './judge-cache.js';
export { JUDGE_KINDS, JUDGE_PROMPT_VERSION, type JudgeKind } from './judge-kinds.js';
export { type LoadRewardConfigOptions, loadRewardConfig } from './load-config.js';
export {
  createMemoryRetriever,
  type MemoryRetrieveResponse,
  type MemoryRetriever,
  type MemoryRetrieverOptions,
} from './memory-retrieve.js';
export { describeRewardFunctions, REWARD_FUNCTIONS } from './registry.js';
export { type RescoreOptions, type RescoreSummary, rescoreRollouts, rolloutToItem } from './rescore.js';
export { RewardRequestError, type ScoreRewardsOptions, scoreRewards } from './score-rewards.js';
export { type RewardServer, type StartRewardServerOptions, startRewardServer } from './server.js';
export type { ItemOutcome, RewardFunction } from './types.js';
