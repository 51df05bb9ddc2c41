import type { EndpointConfig } from '../schemas/llm-config.js';

/** Token counts of one call or a whole run. */
export interface TokenCounts {
  promptTokens: number;
  /** Of `promptTokens`, those served from the endpoint's prefix cache. @default 0 */
  cachedPromptTokens?: number;
  completionTokens: number;
}

/**
 * USD cost of the given tokens at an endpoint's prices (per 1M tokens): cached prompt tokens at
 * `priceCachedInputPerM` when the endpoint has one, else at the input price.
 *
 * @example estimateCost({ promptTokens: 1000, completionTokens: 500 }, { priceInputPerM: 0.5, priceOutputPerM: 1.5 }) // 0.00125
 */
export function estimateCost(
  tokens: TokenCounts,
  prices: Pick<EndpointConfig, 'priceInputPerM' | 'priceOutputPerM'> &
    Partial<Pick<EndpointConfig, 'priceCachedInputPerM'>>,
): number {
  const cached = Math.min(tokens.cachedPromptTokens ?? 0, tokens.promptTokens);
  const cachedPrice = prices.priceCachedInputPerM ?? prices.priceInputPerM;
  return (
    ((tokens.promptTokens - cached) * prices.priceInputPerM +
      cached * cachedPrice +
      tokens.completionTokens * prices.priceOutputPerM) /
    1e6
  );
}
