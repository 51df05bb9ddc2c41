import { InputError } from '../errors/index.js';
import {
  REWARD_NAMES,
  type RewardItemError,
  type RewardRequest,
  type RewardResponse,
  type RewardServerConfig,
} from '../schemas/reward.js';
import { type ItemContext, itemContext } from './item-context.js';
import type { Judge, JudgeOutcome } from './judge.js';
import { JUDGE_PROMPT_VERSION } from './judge-kinds.js';
import { PERSONAVLM_COMPONENTS } from './personavlm.js';
import { REWARD_FUNCTIONS } from './registry.js';
import type { ItemOutcome, RewardFunction, RewardRun } from './types.js';

export interface ScoreRewardsOptions {
  judge: Judge;
  functions: RewardServerConfig['functions'];
  /** Deadline for the whole request; unfinished items come back null with code `timeout`. */
  timeoutMs: number;
  /** Monotonic milliseconds, injected for tests. @default performance.now */
  now?: () => number;
  /** Per item: why it cannot be scored (it comes back null with code `invalid_item`, unscored). */
  invalid?: ReadonlyArray<string | undefined> | undefined;
}

/** A reward name the server does not know, or weights that do not fit the names. */
export class RewardRequestError extends InputError {
  constructor(field: string, message: string) {
    super('reward request', message, { field });
  }
}

/**
 * Scores a validated `/v1/rewards` request. Several rewards combine as `Σ wᵢ·rᵢ`; a component
 * that is `not_applicable` is skipped (like ms-swift's nansum), any other failed component makes
 * the total null. Items unfinished at the deadline are null with code `timeout`, the rest are kept.
 *
 * @example
 * const response = await scoreRewards({ reward: 'format', items: [{ completion: '<think>x</think><answer>y</answer>' }] },
 *   { judge, functions: config.functions, timeoutMs: 60_000 });
 * response.rewards // [1]
 */
export async function scoreRewards(
  request: RewardRequest,
  options: ScoreRewardsOptions,
): Promise<RewardResponse> {
  const invalid = options.invalid;
  if (invalid?.some((problem) => problem !== undefined)) return scoreWithInvalid(request, options, invalid);
  const now = options.now ?? (() => performance.now());
  const started = now();
  const names = Array.isArray(request.reward) ? request.reward : [request.reward];
  for (const [position, name] of names.entries()) {
    if (REWARD_FUNCTIONS[name] === undefined) {
      throw new RewardRequestError(
        Array.isArray(request.reward) ? `reward.${position}` : 'reward',
        `unknown reward "${name}"; known rewards: ${REWARD_NAMES.join(', ')}`,
      );
    }
  }
  const weights = request.weights ?? names.map(() => 1);
  if (weights.length !== names.length) {
    throw new RewardRequestError(
      'weights',
      `${weights.length} weights for ${names.length} rewards; give one weight per reward`,
    );
  }
  const { items } = request;
  const contexts: Array<ItemContext | undefined> = [];
  // Raw outcomes per function: rule rewards answer synchronously, judge rewards with promises.
  const memo = new Map<string, Array<ItemOutcome | Promise<ItemOutcome>>>();
  const raw = (name: string) => {
    let outcomes = memo.get(name);
    if (outcomes === undefined) {
      outcomes = (REWARD_FUNCTIONS[name] as RewardFunction).score(run);
      memo.set(name, outcomes);
    }
    return outcomes;
  };
  const batches = new Set<number>();
  let judgeItems = 0;
  let cacheHits = 0;
  let judgeFailed = 0;
  const run: RewardRun = {
    items,
    judge: options.judge,
    config: options.functions,
    context(index) {
      let context = contexts[index];
      if (context === undefined) {
        context = itemContext(items[index] as RewardRun['items'][number]);
        contexts[index] = context;
      }
      return context;
    },
    evaluate(name) {
      return raw(name).map((outcome) => Promise.resolve(outcome));
    },
    noteJudge(outcome: JudgeOutcome) {
      if (outcome.ok && outcome.cached) cacheHits++;
      else judgeItems++;
      if (!outcome.ok && outcome.code === 'judge_error') judgeFailed++;
      if (outcome.batch > 0) batches.add(outcome.batch);
    },
  };

  // Components: every requested reward, plus PersonaVLM's parts when it is asked for.
  const componentNames = [...names];
  if (names.includes('personavlm')) {
    for (const part of PERSONAVLM_COMPONENTS) if (!componentNames.includes(part)) componentNames.push(part);
  }
  const settled = new Map<string, Array<ItemOutcome | undefined>>();
  const waits: Array<Promise<void>> = [];
  for (const name of componentNames) {
    const slots: Array<ItemOutcome | undefined> = new Array(items.length);
    settled.set(name, slots);
    raw(name).forEach((outcome, index) => {
      if (!(outcome instanceof Promise)) {
        slots[index] = outcome;
        return;
      }
      waits.push(
        outcome.then(
          (value) => {
            slots[index] = value;
          },
          (error: unknown) => {
            slots[index] = { value: null, code: 'judge_error', message: `scoring failed: ${String(error)}` };
          },
        ),
      );
    });
  }
  // Only requests with pending (judge) outcomes need a deadline timer.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    if (waits.length > 0) timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
  });
  const finished =
    waits.length === 0
      ? 'done'
      : await Promise.race([Promise.all(waits).then(() => 'done' as const), deadline]);
  clearTimeout(timer);

  const timedOut: ItemOutcome = {
    value: null,
    code: 'timeout',
    message: `not scored within the request timeout of ${options.timeoutMs} ms`,
  };
  const components: Record<string, Array<number | null>> = {};
  const errors: RewardItemError[] = [];
  for (const name of componentNames) {
    const slots = settled.get(name) ?? [];
    components[name] = items.map((_item, index) => {
      const outcome = slots[index] ?? timedOut;
      if (outcome.value === null)
        errors.push({ index, reward: name, code: outcome.code, message: outcome.message });
      return outcome.value;
    });
  }
  const rewards = items.map((_item, index) => {
    let total = 0;
    let applicable = 0;
    for (const [position, name] of names.entries()) {
      const outcome = settled.get(name)?.[index] ?? timedOut;
      if (outcome.value === null) {
        if (outcome.code === 'not_applicable' && names.length > 1) continue;
        return null;
      }
      applicable++;
      total += (weights[position] ?? 1) * outcome.value;
    }
    return applicable === 0 ? null : Math.round(total * 10_000) / 10_000;
  });
  const judge = options.judge;
  const scorers: Record<string, string> = {};
  for (const name of componentNames)
    scorers[name] = scorerLabel(REWARD_FUNCTIONS[name] as RewardFunction, judge);
  return {
    rewards,
    components,
    errors,
    usage: {
      items: items.length,
      judge_calls: batches.size,
      judge_items: judgeItems,
      cache_hits: cacheHits,
      judge_failed: judgeFailed,
      // Any judge-backed function scored by the offline heuristics (or offline structure) marks the response.
      offline:
        judge.offline && componentNames.some((name) => (REWARD_FUNCTIONS[name] as RewardFunction).usesJudge),
      scorers,
      judge_model: judge.model,
      prompt_version: JUDGE_PROMPT_VERSION,
      elapsed_ms: Math.round((now() - started) * 1000) / 1000,
      timed_out: finished === 'timeout',
    },
  };
}

/** Scores the valid items only, then puts the invalid ones back as nulls with code `invalid_item`. */
async function scoreWithInvalid(
  request: RewardRequest,
  options: ScoreRewardsOptions,
  invalid: ReadonlyArray<string | undefined>,
): Promise<RewardResponse> {
  const keep = request.items.flatMap((_item, index) => (invalid[index] === undefined ? [index] : []));
  const names = Array.isArray(request.reward) ? request.reward : [request.reward];
  for (const name of names) {
    if (REWARD_FUNCTIONS[name] === undefined)
      throw new RewardRequestError(
        'reward',
        `unknown reward "${name}"; known rewards: ${REWARD_NAMES.join(', ')}`,
      );
  }
  const inner =
    keep.length > 0
      ? await scoreRewards(
          { ...request, items: keep.map((index) => request.items[index] as RewardRequest['items'][number]) },
          { ...options, invalid: undefined },
        )
      : undefined;
  const expand = (values: ReadonlyArray<number | null> | undefined) => {
    const out: Array<number | null> = request.items.map(() => null);
    keep.forEach((index, position) => {
      out[index] = values?.[position] ?? null;
    });
    return out;
  };
  const components: Record<string, Array<number | null>> = {};
  const componentNames = [...names];
  if (names.includes('personavlm')) {
    for (const part of PERSONAVLM_COMPONENTS) if (!componentNames.includes(part)) componentNames.push(part);
  }
  for (const name of inner ? Object.keys(inner.components) : componentNames)
    components[name] = expand(inner?.components[name]);
  const errors: RewardItemError[] = (inner?.errors ?? []).map((error) => ({
    ...error,
    index: keep[error.index] ?? error.index,
  }));
  invalid.forEach((problem, index) => {
    if (problem === undefined) return;
    for (const name of Object.keys(components))
      errors.push({ index, reward: name, code: 'invalid_item', message: problem });
  });
  errors.sort((a, b) => a.index - b.index);
  const judge = options.judge;
  return {
    rewards: expand(inner?.rewards),
    components,
    errors,
    usage: inner
      ? { ...inner.usage, items: request.items.length }
      : {
          items: request.items.length,
          judge_calls: 0,
          judge_items: 0,
          cache_hits: 0,
          judge_failed: 0,
          offline: false,
          scorers: {},
          judge_model: judge.model,
          prompt_version: JUDGE_PROMPT_VERSION,
          elapsed_ms: 0,
          timed_out: false,
        },
  };
}

/** How a function's values were produced, so offline scores are never mistaken for judged ones. */
function scorerLabel(fn: RewardFunction, judge: Judge): string {
  if (fn.name === 'personavlm') return `composite(${PERSONAVLM_COMPONENTS.join('+')})`;
  if (!fn.usesJudge) return 'rule';
  const judged = judge.offline ? 'offline-heuristic' : judge.unavailable ? 'judge-unavailable' : 'llm-judge';
  if (fn.name === 'tree_ops') return judge.offline ? 'offline-structural' : `${judged}+structural`;
  if (fn.name === 'accuracy') return `rule(mc,binary)+${judged}(open)`;
  return judged;
}
