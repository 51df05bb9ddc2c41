import { join } from 'node:path';
import { InputError, PersonaForgeError } from '../errors/index.js';
import { createLlmClient } from '../llm/index.js';
import { assertBudgetEnforceable, withPrices } from '../llm/known-prices.js';
import { probeEndpoint } from '../llm/probe-endpoint.js';
import type { LlmClient } from '../llm/types.js';
import { createConfiguredJudge } from '../reward/configured-judge.js';
import { createJudgeCache } from '../reward/judge-cache.js';
import { scoreRewards } from '../reward/score-rewards.js';
import { LlmConfig } from '../schemas/llm-config.js';
import { RewardServerConfig } from '../schemas/reward.js';
import { writeFileAtomic } from '../util/fs.js';
import { loadEvalSet } from './load.js';
import { type EvalRecord, type EvalStrategy, runEval } from './run.js';
import {
  compareCoverage,
  compareHtml,
  compareMarkdown,
  compareRecords,
  type EvalSummary,
  readRecords,
  writeSummary,
} from './summary.js';
import type { EvalItem } from './types.js';

export { LOCOMO_CATEGORIES, loadEvalSet, locomoTime, parseCsv } from './load.js';
export { type EvalRecord, type EvalStrategy, runEval, visibleHistory } from './run.js';
export { extractAnswer, locomoF1, locomoMultiF1, normalizeLocomo, scoreItem } from './score.js';
export { assembleFull, snapshotOf } from './strategies.js';
export * from './summary.js';
export type { EvalFormat, EvalItem, EvalSet, EvalTurn } from './types.js';

/** `--context 32k|128k|N` → tokens. */
export function parseContext(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kK])?$/.exec(text.trim());
  if (match === null) throw new Error(`--context is 32k, 128k or a token count (got "${text}")`);
  return Math.round(Number(match[1]) * (match[2] === undefined ? 1 : 1024));
}

export interface EvalCommandOptions {
  set: string;
  out: string;
  baseUrl: string;
  model: string;
  apiKeyEnv?: string;
  strategy?: EvalStrategy;
  context?: string;
  limit?: number;
  concurrency?: number;
  budgetUsd?: number;
  /** An OpenAI-compatible judge for open answers (LoCoMo), besides the paper's token F1. */
  judgeBaseUrl?: string;
  judgeModel?: string;
  onProgress?: (progress: { done: number; total: number; resumed: number; failed: number }) => void;
  /** Replaces the client built from baseUrl/model (tests). */
  llm?: LlmClient;
  /**
   * Probe the endpoint (and the judge's) before the first question, so a wrong URL, model or key
   * stops in seconds. @default true unless `llm` is given
   */
  probe?: boolean;
  /**
   * The share of questions (0–1) allowed to fail after retries; above it the evaluation throws an
   * `EvalFailuresError` after writing its outputs (errors are never scored). @default 0
   */
  maxErrorRate?: number;
  /** USD per 1M prompt / completion tokens of the served model (for `budgetUsd`). */
  priceInputPerM?: number;
  priceOutputPerM?: number;
}

/** Evaluation finished, but more questions failed than `maxErrorRate` allows. */
export class EvalFailuresError extends PersonaForgeError {
  readonly summary: EvalSummary;
  constructor(message: string, summary: EvalSummary, hint: string) {
    super('EVAL_FAILED', message, { hint });
    this.summary = summary;
  }
}

/**
 * `persona-forge eval`: loads the set (format detected), evaluates it with the strategy against
 * the served model, and writes items.jsonl, summary.json, summary.md and report.html.
 *
 * @example await evalCommand({ set: 'out/q/export/eval', out: 'out/eval', baseUrl: 'http://127.0.0.1:8000/v1', model: 'ckpt' });
 */
export async function evalCommand(
  options: EvalCommandOptions,
): Promise<{ records: EvalRecord[]; summary: EvalSummary }> {
  const sets = await loadEvalSet(options.set);
  for (const set of sets) {
    const missing = set.items.find((item) => !set.histories.has(item.conversationId));
    if (missing !== undefined) {
      throw new InputError(
        set.source,
        set.format === 'personamem'
          ? `conversation "${missing.conversationId}" is not in a shared_contexts*.jsonl beside the questions file (PersonaMem ships them as a separate file)`
          : `conversation "${missing.conversationId}" of ${missing.id} was not found`,
      );
    }
  }
  const strategy = options.strategy ?? 'full';
  const llmConfig = evalLlmConfig(options);
  if (options.llm === undefined) assertBudgetEnforceable(llmConfig, options.budgetUsd, ['eval']);
  if (options.llm === undefined && options.probe !== false) {
    await probeEndpoint(
      'model',
      {
        baseUrl: options.baseUrl,
        model: options.model,
        ...(options.apiKeyEnv === undefined ? {} : { apiKeyEnv: options.apiKeyEnv }),
      },
      'chat',
    );
    if (options.judgeBaseUrl !== undefined)
      await probeEndpoint(
        'judge',
        { baseUrl: options.judgeBaseUrl, model: options.judgeModel ?? options.model },
        'chat',
      );
  }
  const llm =
    options.llm ??
    createLlmClient(llmConfig, {
      // Answers are cached inside the output folder: a rerun resumes for free, and two
      // checkpoints served under the same model name never share answers.
      cacheDir: join(options.out, '.cache'),
      ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
    });
  const judgeOpen =
    options.judgeBaseUrl === undefined
      ? undefined
      : createOpenJudge(options.judgeBaseUrl, options.judgeModel ?? options.model, options.out);
  const records = await runEval(sets, {
    ...(judgeOpen === undefined ? {} : { judgeOpen }),
    out: options.out,
    llm,
    strategy,
    contextTokens: parseContext(options.context ?? '32k'),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    target: `${options.baseUrl} (model ${options.model})`,
  });
  const summary = await writeSummary(options.out, records, { strategy, model: options.model });
  const allowed = options.maxErrorRate ?? 0;
  if (summary.errors > 0 && summary.errors / Math.max(1, summary.items) > allowed) {
    const first = summary.errorReasons[0];
    throw new EvalFailuresError(
      `${summary.errors} of ${summary.items} questions failed after retries (more than --max-error-rate ${allowed}); they are not scored. Most common: ${first?.reason ?? '?'} (${first?.count ?? 0}×)`,
      summary,
      `fix the endpoint and run the same command again: the ${summary.scored} answered questions are kept and only the failed ones are asked again (summary.json and summary.md list the errors)`,
    );
  }
  return { records, summary };
}

/** The one endpoint `eval` asks, priced from the flags or the known hosted models. */
function evalLlmConfig(options: EvalCommandOptions): LlmConfig {
  return withPrices(
    LlmConfig.parse({
      endpoints: {
        model: {
          baseUrl: options.baseUrl,
          model: options.model,
          ...(options.apiKeyEnv === undefined ? {} : { apiKeyEnv: options.apiKeyEnv }),
          maxConcurrency: options.concurrency ?? 64,
        },
      },
      roles: { eval: 'model' },
    }),
    {
      ...(options.priceInputPerM === undefined ? {} : { inputPerM: options.priceInputPerM }),
      ...(options.priceOutputPerM === undefined ? {} : { outputPerM: options.priceOutputPerM }),
    },
  );
}

/**
 * The reward server's accuracy judge (its versioned prompt; verdicts cached in the output folder)
 * as a scorer of open answers: 1 when it says CORRECT, 0 when WRONG, null when it failed.
 */
function createOpenJudge(baseUrl: string, model: string, out: string) {
  const llm = createLlmClient(
    LlmConfig.parse({ endpoints: { judge: { baseUrl, model } }, roles: { judge: 'judge' } }),
    { cacheDir: join(out, '.cache') },
  );
  const config = RewardServerConfig.parse({});
  const judge = createConfiguredJudge(llm, config, createJudgeCache({ maxEntries: 100_000 }));
  return async (item: EvalItem, answer: string): Promise<number | null> => {
    const response = await scoreRewards(
      {
        reward: 'accuracy',
        items: [
          {
            completion: `<think>-</think><answer>${answer}</answer>`,
            solution: item.answer,
            question: item.question,
          },
        ],
      },
      { judge, functions: config.functions, timeoutMs: 120_000 },
    );
    return response.rewards[0] ?? null;
  };
}

/** `persona-forge eval compare <dirA> <dirB> [--out dir]`: per-task deltas with paired bootstrap intervals. */
export async function evalCompareCommand(dirs: [string, string], out?: string): Promise<string> {
  const [a, b] = await Promise.all(dirs.map((dir) => readRecords(dir)));
  const rows = compareRecords(a as EvalRecord[], b as EvalRecord[]);
  const coverage = compareCoverage(a as EvalRecord[], b as EvalRecord[]);
  const markdown = compareMarkdown(rows, dirs, coverage);
  if (out !== undefined) {
    await writeFileAtomic(join(out, 'compare.md'), markdown);
    await writeFileAtomic(join(out, 'compare.html'), compareHtml(rows, dirs, coverage));
    await writeFileAtomic(join(out, 'compare.json'), `${JSON.stringify(rows, null, 2)}\n`);
  }
  return markdown;
}
