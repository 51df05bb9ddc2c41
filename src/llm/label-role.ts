import type { LlmClient } from './types.js';

/**
 * The role that reads model-written text for a label or a check: `judge`, else the realizer's
 * endpoint (the model that wrote the text can still read it); null when both are offline, where
 * the offline readers stay as they are.
 *
 * @example const role = labelRole(llm); if (role !== null) await llm.structured(role, request);
 */
export function labelRole(llm: LlmClient): 'judge' | 'realizer' | null {
  if (!llm.isOffline('judge')) return 'judge';
  if (!llm.isOffline('realizer')) return 'realizer';
  return null;
}
