import { InputError } from '../errors/index.js';
import type { EndpointConfig, LlmConfig } from '../schemas/llm-config.js';

/** USD per 1M prompt / completion tokens, and per 1M prompt tokens served from the provider's prompt cache. */
export interface Prices {
  inputPerM: number;
  outputPerM: number;
  /** Unset where no published figure was confirmed: cached tokens are then billed at `inputPerM`. */
  cachedInputPerM?: number;
}

/**
 * List prices (USD per 1M tokens, standard tier, no batch discount) of common hosted models. They
 * let `--budget-usd` work against a hosted API with no price in the pipeline file; an endpoint's
 * own `priceInputPerM` / `priceOutputPerM` / `priceCachedInputPerM` (or the `--price-*` flags)
 * always wins. Checked in November 2026 against the providers' pricing pages (DeepSeek's
 * api-docs.deepseek.com/quick_start/pricing, Anthropic's platform.claude.com pricing page) and,
 * for OpenAI and Google, against pages quoting theirs (March 2026). Cached-input prices are given
 * only where those sources agreed (OpenAI's GPT-5 and GPT-4.1 cached rates, o3's and Gemini's
 * were quoted differently and are left unset). Check your provider's page: prices change.
 */
export const KNOWN_PRICES: Readonly<Record<string, Prices>> = {
  'gpt-4o': { inputPerM: 2.5, outputPerM: 10, cachedInputPerM: 1.25 },
  'gpt-4o-mini': { inputPerM: 0.15, outputPerM: 0.6, cachedInputPerM: 0.075 },
  'gpt-4.1': { inputPerM: 2, outputPerM: 8 },
  'gpt-4.1-mini': { inputPerM: 0.4, outputPerM: 1.6 },
  'gpt-4.1-nano': { inputPerM: 0.1, outputPerM: 0.4 },
  'gpt-5': { inputPerM: 1.25, outputPerM: 10 },
  'gpt-5-mini': { inputPerM: 0.25, outputPerM: 2 },
  'gpt-5-nano': { inputPerM: 0.05, outputPerM: 0.4 },
  o3: { inputPerM: 2, outputPerM: 8 },
  'o3-mini': { inputPerM: 1.1, outputPerM: 4.4 },
  'o4-mini': { inputPerM: 1.1, outputPerM: 4.4 },
  'text-embedding-3-small': { inputPerM: 0.02, outputPerM: 0 },
  'text-embedding-3-large': { inputPerM: 0.13, outputPerM: 0 },
  // DeepSeek reports cache hits as usage.prompt_cache_hit_tokens (read by the llm layer too).
  'deepseek-chat': { inputPerM: 0.27, outputPerM: 1.1, cachedInputPerM: 0.07 },
  'deepseek-reasoner': { inputPerM: 0.55, outputPerM: 2.19, cachedInputPerM: 0.14 },
  'claude-sonnet-4': { inputPerM: 3, outputPerM: 15, cachedInputPerM: 0.3 },
  'claude-opus-4': { inputPerM: 15, outputPerM: 75, cachedInputPerM: 1.5 },
  'claude-3-5-haiku': { inputPerM: 0.8, outputPerM: 4, cachedInputPerM: 0.08 },
  'gemini-2.5-pro': { inputPerM: 1.25, outputPerM: 10 },
  'gemini-2.5-flash': { inputPerM: 0.3, outputPerM: 2.5 },
};

/**
 * The known price of a model id: exact, or after dropping a provider prefix (`openai/gpt-4o`) and
 * a date or `-latest` suffix (`gpt-4o-2024-08-06`, `claude-sonnet-4-20250514`). `gpt-4o-mini` is
 * never read as `gpt-4o`: only a date is dropped, never a word.
 *
 * @example knownPrice('gpt-4o-mini-2024-07-18') // { inputPerM: 0.15, outputPerM: 0.6 }
 */
export function knownPrice(model: string): Prices | undefined {
  const bare = model
    .trim()
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, '');
  return KNOWN_PRICES[bare];
}

/** True when the endpoint bills something per token (its own prices, or none given). */
function priced(endpoint: Pick<EndpointConfig, 'priceInputPerM' | 'priceOutputPerM'>): boolean {
  return endpoint.priceInputPerM > 0 || endpoint.priceOutputPerM > 0;
}

/**
 * Fills in the prices of endpoints that have none (both 0): from `flags` (the CLI's
 * `--price-input-per-m` / `--price-output-per-m`) when given, else from `KNOWN_PRICES`.
 *
 * @example withPrices(config.llm, { inputPerM: 0.15, outputPerM: 0.6 })
 */
export function withPrices(config: LlmConfig, flags?: Partial<Prices>): LlmConfig {
  const hasFlags = flags?.inputPerM !== undefined || flags?.outputPerM !== undefined;
  const endpoints = Object.fromEntries(
    Object.entries(config.endpoints).map(([name, endpoint]) => {
      if (priced(endpoint)) return [name, endpoint];
      const price = hasFlags
        ? { inputPerM: flags?.inputPerM ?? 0, outputPerM: flags?.outputPerM ?? 0 }
        : knownPrice(endpoint.model);
      if (price === undefined) return [name, endpoint];
      const cached = endpoint.priceCachedInputPerM ?? price.cachedInputPerM;
      return [
        name,
        {
          ...endpoint,
          priceInputPerM: price.inputPerM,
          priceOutputPerM: price.outputPerM,
          ...(cached === undefined ? {} : { priceCachedInputPerM: cached }),
        },
      ];
    }),
  );
  return { ...config, endpoints };
}

/**
 * A budget can only stop a run that costs something: refuses `budgetUsd` when an endpoint the
 * given roles use has no price (it would never fire, the run would spend without limit).
 */
export function assertBudgetEnforceable(
  config: Pick<LlmConfig, 'endpoints' | 'roles'>,
  budgetUsd: number | undefined,
  roles: readonly string[],
): void {
  if (budgetUsd === undefined) return;
  for (const role of roles) {
    const name = config.roles[role];
    const endpoint = name === undefined ? undefined : config.endpoints[name];
    if (endpoint === undefined || priced(endpoint)) continue;
    throw new InputError(
      '--budget-usd',
      `a budget of $${budgetUsd} cannot be enforced: endpoint "${name}" (model ${endpoint.model}, role ${role}) has no price, so its cost would stay $0`,
      {
        hint: `pass --price-input-per-m USD --price-output-per-m USD (per 1M tokens), or set priceInputPerM / priceOutputPerM under llm.endpoints.${name}; prices are known for ${Object.keys(KNOWN_PRICES).slice(0, 6).join(', ')}, …`,
      },
    );
  }
}
