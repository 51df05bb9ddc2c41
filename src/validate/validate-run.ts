import { StageError } from '../errors/index.js';
import type { M2aBuilder } from '../export/systems/m2a.js';
import type { LlmClient } from '../llm/types.js';
import type { QuarantineRecord } from '../schemas/common.js';
import type { ValidationReport } from '../schemas/validate-config.js';
import { createThreadPool } from '../util/thread-pool.js';
import { checkUser } from './check-user.js';
import type { FoldLocal } from './corpus-report.js';
import {
  invalidJsonError,
  parseRunLines,
  type RunLines,
  readRunLines,
  type TrustedFiles,
} from './run-lines.js';
import { sharedMap } from './schedule.js';
import { indexUser } from './types.js';
import { corpusSetup } from './validate-corpus.js';
import {
  corpusOptionsOf,
  type ValidateJobData,
  type ValidateJobResult,
  validateUserLines,
} from './validate-user-job.js';

export interface ValidateRunOptions {
  /** The rule, fidelity and dedup settings (sent to each worker thread as they are). */
  job: ValidateJobData;
  /** Serves the `judge` role; null or offline = heuristics (run with the rules). @default null */
  llm?: LlmClient | null;
  /** M²A merged conversations to build and check (the builder is stateful: users go in order on this thread). */
  m2a?: { builder: M2aBuilder; splits: readonly string[] };
  /**
   * Threads that parse and check users: this one and a pool of `workers - 1` (≤ 1: this thread
   * alone; M²A: this thread alone). validation.json and the quarantine records are the same
   * bytes either way.
   * @default 0
   */
  workers?: number;
  /** Old-generation heap limit per worker (MB). @default 384 */
  maxHeapMb?: number;
  /**
   * The handler the worker threads run, `(lines, data) => ValidateJobResult`. Tests swap in one
   * that fails on purpose. @default validate-user-job.ts `validateUserJob`
   */
  worker?: { module: URL; exportName: string };
  /** A user skipped before its checks: a record failing its schema, or missing downstream. */
  onSkip?: (userId: string, reason: string) => void;
  onQuarantine?: (record: Omit<QuarantineRecord, 'stage'>) => void;
  onProgress?: (done: number) => void;
  signal?: AbortSignal;
}

/**
 * Validates a run directory. The main thread reads each user's raw lines (joined by `userId`)
 * and folds the users' checks into the report in user order (dedup across users, totals,
 * quarantine records, the M²A builder, a judge model); parsing the records, the rule checks,
 * offline judges, the fidelity measurement and dedup signatures run on `workers` threads (a
 * pool of `workers - 1` and this one, `sharedMap`).
 *
 * @example const { report } = await validateRun('out/q', { job, workers: 2 });
 */
export async function validateRun(
  runDir: string,
  options: ValidateRunOptions,
): Promise<{ report: ValidationReport; skipped: number }> {
  const { env, corpus, judges } = corpusSetup({
    ...corpusOptionsOf(options.job),
    llm: options.llm ?? null,
    ...(options.onQuarantine === undefined ? {} : { onQuarantine: options.onQuarantine }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const judgesHere = judges.mode === 'offline-heuristic';
  const workers = options.m2a === undefined ? (options.workers ?? 0) : 0;
  // `workers` threads check users: this one and a pool of the others.
  const pool =
    workers > 1
      ? createThreadPool({
          size: workers - 1,
          module: options.worker?.module ?? new URL('./validate-user-job.ts', import.meta.url),
          exportName: options.worker?.exportName ?? 'validateUserJob',
          data: { ...options.job, judgesHere },
          // One user's records at a time: a bounded heap keeps the run under its memory budget.
          maxHeapMb: options.maxHeapMb ?? 384,
        })
      : null;
  let skipped = 0;
  let done = 0;
  let last: string | null = null;
  const m2a = options.m2a;
  try {
    const results =
      pool === null
        ? inline(readRunLines(runDir), options.job.trusted)
        : sharedMap<RunLines, ValidateJobResult>(readRunLines(runDir), {
            pool,
            // One job running and one queued per worker; this thread checks the users beyond.
            window: 2 * pool.size,
            toMessage: (lines) => lines,
            here: (lines) => validateUserLines(lines, env, options.job.trusted),
            failed: (error) => workerFailure(error, last),
          });
    for await (const { item: lines, result } of results) {
      options.signal?.throwIfAborted();
      if (result.kind === 'invalid-json') throw invalidJsonError(runDir, result);
      if (result.kind === 'skip') {
        skipped++;
        options.onSkip?.(lines.userId, result.reason);
        last = lines.userId;
        continue;
      }
      if (result.kind === 'user') {
        // A judge model is called from here: it needs the user's records on this thread too.
        await corpus.fold(
          result.check,
          judgesHere ? {} : { index: indexUser(bundleOf(lines, options.job.trusted)) },
        );
      } else {
        const { bundle } = result;
        const builder = m2a?.splits.includes(bundle.plan.split) ? m2a.builder : undefined;
        if (builder !== undefined) bundle.m2a = await builder.build(bundle);
        const index = indexUser(bundle);
        const local: FoldLocal = { index };
        if (builder !== undefined && bundle.m2a !== undefined) local.m2a = { builder, built: bundle.m2a };
        await corpus.fold(await checkUser(index, env), local);
      }
      last = lines.userId;
      options.onProgress?.(++done);
    }
  } finally {
    await pool?.close();
  }
  return { report: corpus.finish(), skipped };
}

type InlineResult =
  | Exclude<ValidateJobResult, { kind: 'user' }>
  | { kind: 'bundle'; bundle: ReturnType<typeof bundleOf> };

/** Parsing on this thread; the checks follow in the caller (after an M²A sample is built). */
async function* inline(
  items: AsyncIterable<RunLines>,
  trusted: TrustedFiles | undefined,
): AsyncGenerator<{ item: RunLines; result: InlineResult }> {
  for await (const item of items) yield { item, result: parseRunLines(item, trusted) };
}

function bundleOf(lines: RunLines, trusted: TrustedFiles | undefined) {
  const parsed = parseRunLines(lines, trusted);
  if (parsed.kind !== 'bundle')
    throw new StageError(
      'validate',
      `user ${lines.userId} parsed on a worker thread but not on the main thread`,
    );
  return parsed.bundle;
}

/** A worker that fails (a crash, its heap limit) fails the stage, naming where it stopped. */
function workerFailure(error: unknown, last: string | null): StageError {
  const message = error instanceof Error ? error.message : String(error);
  const where = last === null ? 'checking the first user' : `checking the users after ${last}`;
  return new StageError('validate', `a worker thread failed while ${where}: ${message}`, {
    cause: error,
    hint: 'run the same command with --workers 1 to check every user on the main thread',
  });
}
