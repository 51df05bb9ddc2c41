import type { LlmClient } from '../llm/types.js';
import type { RewardServerConfig } from '../schemas/reward.js';
import { createJudge, type Judge } from './judge.js';
import type { JudgeCache } from './judge-cache.js';

/**
 * The judge a reward config describes (`judge:` section plus the offline accuracy threshold).
 *
 * @example const judge = createConfiguredJudge(llm, config, cache);
 */
export function createConfiguredJudge(
  llm: LlmClient,
  config: RewardServerConfig,
  cache: JudgeCache | undefined,
): Judge {
  return createJudge({
    llm,
    cache,
    role: config.judge.role,
    batchSize: config.judge.batchSize,
    temperature: config.judge.temperature,
    maxTokens: config.judge.maxTokens,
    allowOffline: config.judge.allowOffline,
    offlineF1Threshold: config.functions.accuracy.offlineF1Threshold,
  });
}
