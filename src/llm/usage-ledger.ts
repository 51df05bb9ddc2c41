import { BudgetExceededError } from '../errors/index.js';
import type { Usage } from './types.js';

/**
 * Usage and cost per stage and per endpoint, plus the budget guard. Before a call is sent its
 * worst-case cost is reserved; the call is refused (`BudgetExceededError`) if spent + reserved +
 * worst case would pass the budget, so concurrent calls can never overshoot it together.
 *
 * @example
 * const ledger = createUsageLedger(5);
 * const hold = ledger.reserve(0.01); ledger.settle(hold, 'synth', 'main', { … });
 */
export interface UsageLedger {
  /** Reserves `worstCaseUsd`; throws `BudgetExceededError` when it would pass the budget. */
  reserve(worstCaseUsd: number): number;
  /** Frees a reservation without billing (the call failed before an answer). */
  release(reservedUsd: number): void;
  /** Frees a reservation and bills one answered call. */
  settle(reservedUsd: number, stage: string, endpoint: string, call: CallUsage): void;
  hit(stage: string, endpoint: string): void;
  failure(stage: string, endpoint: string): void;
  /** Records an offline call (no cost). */
  offline(stage: string, call: Omit<CallUsage, 'costUsd'>): void;
  snapshot(): { byStage: Record<string, Usage>; byEndpoint: Record<string, Usage>; total: Usage };
}

export interface CallUsage {
  promptTokens: number;
  /** Prompt tokens the endpoint served from its prefix cache (0 or absent when not reported). */
  cachedPromptTokens?: number;
  completionTokens: number;
  costUsd: number;
}

const empty = (): Usage => ({
  calls: 0,
  cacheHits: 0,
  promptTokens: 0,
  cachedPromptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  failures: 0,
});

function rowOf(map: Map<string, Usage>, key: string): Usage {
  let row = map.get(key);
  if (row === undefined) {
    row = empty();
    map.set(key, row);
  }
  return row;
}

export function createUsageLedger(budgetUsd?: number): UsageLedger {
  const byStage = new Map<string, Usage>();
  const byEndpoint = new Map<string, Usage>();
  const total = empty();
  let reserved = 0;

  const rows = (stage: string, endpoint: string): [Usage, Usage, Usage] => {
    return [rowOf(byStage, stage), rowOf(byEndpoint, endpoint), total];
  };

  const addCall = (stage: string, endpoint: string, call: CallUsage): void => {
    for (const row of rows(stage, endpoint)) {
      row.calls++;
      row.promptTokens += call.promptTokens;
      row.cachedPromptTokens = (row.cachedPromptTokens ?? 0) + (call.cachedPromptTokens ?? 0);
      row.completionTokens += call.completionTokens;
      row.costUsd += call.costUsd;
    }
  };

  return {
    reserve(worstCaseUsd) {
      if (budgetUsd !== undefined && total.costUsd + reserved + worstCaseUsd > budgetUsd) {
        throw new BudgetExceededError(budgetUsd, total.costUsd);
      }
      reserved += worstCaseUsd;
      return worstCaseUsd;
    },
    release(reservedUsd) {
      reserved -= reservedUsd;
    },
    settle(reservedUsd, stage, endpoint, call) {
      reserved -= reservedUsd;
      addCall(stage, endpoint, call);
    },
    hit(stage, endpoint) {
      for (const row of rows(stage, endpoint)) row.cacheHits++;
    },
    failure(stage, endpoint) {
      for (const row of rows(stage, endpoint)) row.failures++;
    },
    offline(stage, call) {
      addCall(stage, 'offline', { ...call, costUsd: 0 });
    },
    snapshot() {
      const copy = (map: Map<string, Usage>): Record<string, Usage> =>
        Object.fromEntries(
          [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, { ...v }]),
        );
      return { byStage: copy(byStage), byEndpoint: copy(byEndpoint), total: { ...total } };
    },
  };
}
