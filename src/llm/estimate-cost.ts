import type { EndpointConfig } from '../schemas/llm-config.js';

/** Token counts of one call or a whole run. */
export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
}

/**
 * USD cost of the given tokens at an endpoint's prices (per 1M tokens).
 *
 * @example estimateCost({ promptTokens: 1000, completionTokens: 500 }, { priceInputPerM: 0.5, priceOutputPerM: 1.5 }) // 0.00125
 */
export function estimateCost(
  tokens: TokenCounts,
  prices: Pick<EndpointConfig, 'priceInputPerM' | 'priceOutputPerM'>,
): number {
  return (
    (tokens.promptTokens * prices.priceInputPerM + tokens.completionTokens * prices.priceOutputPerM) / 1e6
  );
}
