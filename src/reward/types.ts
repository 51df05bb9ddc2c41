import type { RewardErrorCode, RewardItem, RewardServerConfig } from '../schemas/reward.js';
import type { ItemContext } from './item-context.js';
import type { Judge, JudgeOutcome } from './judge.js';

/**
 * How one reward function plugs into the server. A function scores every item of a request and
 * answers one outcome per item: a number, or null with a typed code (never 0 for a failure).
 */
export type ItemOutcome = { value: number } | { value: null; code: RewardErrorCode; message: string };

/** One request being scored: items, their parsed contexts, the judge, and memoised function results. */
export interface RewardRun {
  readonly items: RewardItem[];
  context(index: number): ItemContext;
  readonly judge: Judge;
  readonly config: RewardServerConfig['functions'];
  /** Outcomes of another function on the same items (computed once per request). */
  evaluate(name: string): Array<Promise<ItemOutcome>>;
  /** Records a judge outcome for the request's usage figures. */
  noteJudge(outcome: JudgeOutcome): void;
}

export interface RewardFunction {
  name: string;
  description: string;
  /** Dataset columns the function reads besides `completion` (missing → `not_applicable`). */
  requiredColumns: string[];
  usesJudge: boolean;
  score(run: RewardRun): Array<ItemOutcome | Promise<ItemOutcome>>;
}

export const notApplicable = (message: string): ItemOutcome => ({
  value: null,
  code: 'not_applicable',
  message,
});
export const invalidItem = (message: string): ItemOutcome => ({ value: null, code: 'invalid_item', message });

/** A judge outcome as an item outcome, mapped through `transform` when it succeeded. */
export function fromJudge(
  outcome: JudgeOutcome,
  transform: (value: number) => number = (v) => v,
): ItemOutcome {
  return outcome.ok
    ? { value: transform(outcome.value) }
    : { value: null, code: outcome.code, message: outcome.message };
}
