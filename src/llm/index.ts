export { type AdaptiveConcurrency, createAdaptiveConcurrency } from './adaptive-concurrency.js';
export { applyLlmOverride, KNOWN_ROLES, type LlmOverride, OVERRIDE_ENDPOINT } from './apply-llm-override.js';
export { type Clock, systemClock } from './clock.js';
export {
  type CreateLlmClientOptions,
  createLlmClient,
  type EndpointStats,
  type LlmClientHandle,
} from './create-llm-client.js';
export { createDiskCache, type DiskCache } from './disk-cache.js';
export { estimateCost, type TokenCounts } from './estimate-cost.js';
export { createNodeHttpFetch } from './node-http-fetch.js';
export { offlineChatText, offlineEmbedding } from './offline-backend.js';
export { createRateLimiter, type RateLimiter } from './rate-limiter.js';
export { extractJson, type StructuredMode, schemaInfo } from './structured-output.js';
export { estimateMessagesTokens, estimateTokens } from './token-estimate.js';
export type * from './types.js';
export { createUsageLedger, type UsageLedger } from './usage-ledger.js';
