import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BudgetExceededError,
  type ErrorCode,
  PersonaForgeError,
  RunStopError,
  StageError,
} from '../errors/index.js';
import type { QuarantineRecord } from '../schemas/common.js';
import { StageJournal } from './journal.js';
import { mergeJoin } from './merge-join.js';
import { type RunReporter, StageMeter } from './progress.js';
import { stateDir, writeLinesAtomic } from './stage-state.js';
import type { MapStage, StageContext } from './types.js';
import type { MapWorkerPool } from './worker-pool.js';

export interface MapStageRun {
  in: number;
  out: number;
  quarantined: QuarantineRecord[];
}

export interface MapStageDeps {
  ctx: StageContext;
  /** Output path of every earlier stage, by stage name. */
  outputs: Record<string, string>;
  concurrency: number;
  reporter: RunReporter;
  now: () => number;
  /** Cumulative LLM figures, for progress lines. */
  usage: () => { tokens: number; costUsd: number; cacheHits: number };
  /** Worker threads that run `process` (offline CPU-bound stages); in this thread when absent. */
  pool?: MapWorkerPool;
}

/** Why a stage's output was refused: its first schema issues, with their paths. */
export function schemaFailure(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}): string {
  return `output does not match the stage schema: ${error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`)
    .join('; ')}`;
}

/** Quarantine codes a later run retries: the cause may have passed. */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  'LLM_CALL_FAILED',
  'LLM_SCHEMA_MISMATCH',
  'SYNTH_FAILED',
  'DISK_FULL',
  'BUDGET_EXCEEDED',
]);

type WorkItem = { userId: string; records: Record<string, unknown> };

function byUserId(a: { userId: string }, b: { userId: string }): number {
  return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
}

async function countLines(path: string): Promise<number> {
  try {
    const text = await readFile(path, 'utf8');
    let n = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
    return n;
  } catch {
    return 0;
  }
}

/**
 * Runs one per-user stage with resume: finished users are journaled as they complete (in any
 * order, `concurrency` at a time); on the next run they are skipped; at the end the output is
 * rebuilt in input (userId) order and written atomically, so it is byte-identical however often
 * the stage was interrupted. A user whose `process` throws is quarantined with the reason; a
 * budget stop ends the stage cleanly after in-flight users finish and rethrows.
 */
export async function runMapStage(stage: MapStage, deps: MapStageDeps): Promise<MapStageRun> {
  const { ctx } = deps;
  const journal = new StageJournal(join(stateDir(ctx.runDir), `${stage.name}.journal.jsonl`));
  const finished = await journal.load();
  // Users quarantined for a reason that may pass (a model or network fault, a full disk) are
  // processed again; permanent failures stay quarantined.
  const failed = [...finished].filter(([, location]) => !location.ok).map(([userId]) => userId);
  for await (const entry of journal.readBack(failed, finished)) {
    if (!entry.ok && RETRYABLE_CODES.has(entry.code)) finished.delete(entry.userId);
  }
  // Journaled records are checked before they are trusted: one that no longer parses or fits the
  // stage schema (a damaged disk, a hand edit) is processed again, never copied into the output.
  const kept = [...finished].filter(([, location]) => location.ok).map(([userId]) => userId);
  for await (const entry of journal.readBack(kept, finished)) {
    if (!entry.ok) continue;
    let valid = false;
    try {
      valid = stage.schema.safeParse(JSON.parse(entry.json)).success;
    } catch {
      valid = false;
    }
    if (!valid) finished.delete(entry.userId);
  }

  let items: AsyncIterable<WorkItem> | WorkItem[];
  let total: number;
  if (stage.inputs.length === 0) {
    if (stage.source === undefined)
      throw new StageError(stage.name, 'a stage with no inputs needs a source()');
    let list = (await stage.source(ctx)).slice().sort(byUserId);
    if (ctx.shard !== null) {
      const { index, count } = ctx.shard;
      list = list.filter((_, i) => i % count === index);
    }
    items = list.map((item) => ({ userId: item.userId, records: { source: item } }));
    total = list.length;
  } else {
    const files: Record<string, string> = {};
    for (const name of stage.inputs) {
      const path = deps.outputs[name];
      if (path === undefined) {
        throw new StageError(
          stage.name,
          `needs the output of stage "${name}", which this pipeline does not run`,
          {
            hint: `add "${name}" before "${stage.name}" in the pipeline's stages list`,
          },
        );
      }
      files[name] = path;
    }
    total = await countLines(files[stage.inputs[0] as string] as string);
    items = mergeJoin(files);
  }

  const meter = new StageMeter(total, finished.size, deps.now);
  deps.reporter({
    type: 'stage-start',
    stage: stage.name,
    total,
    resumed: Math.min(finished.size, total),
    unit: 'users',
  });
  const order: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let stopError: unknown = null;
  let lastReport = 0;

  const report = (force = false) => {
    const now = deps.now();
    if (!force && now - lastReport < 500) return;
    lastReport = now;
    const usage = deps.usage();
    deps.reporter({
      type: 'stage-progress',
      stage: stage.name,
      unit: 'users',
      done: Math.min(meter.done, meter.total),
      total: meter.total,
      failures: meter.failures,
      ratePerSec: meter.rate(),
      etaSec: meter.eta(),
      ...usage,
    });
  };

  const runOne = async (item: WorkItem): Promise<void> => {
    if (deps.pool !== undefined) {
      const reply = await deps.pool.run(item.records);
      if (reply.ok) await journal.appendRecordJson(item.userId, reply.json);
      else if (reply.stop) {
        stopError ??= new RunStopError(reply.code as ErrorCode, reply.reason);
        return;
      } else {
        await journal.appendFailure(item.userId, reply.reason, reply.code);
        meter.failures++;
      }
      meter.done++;
      report();
      return;
    }
    try {
      const record = await stage.process(item.records, ctx);
      const parsed = stage.schema.safeParse(record);
      if (!parsed.success) {
        await journal.appendFailure(item.userId, schemaFailure(parsed.error), 'SCHEMA');
        meter.failures++;
      } else {
        await journal.appendRecord(
          item.userId,
          stage.encode === undefined ? parsed.data : stage.encode(parsed.data),
        );
      }
    } catch (error) {
      if (
        error instanceof BudgetExceededError ||
        error instanceof RunStopError ||
        ctx.signal.aborted ||
        (error instanceof PersonaForgeError && error.code === 'DISK_FULL')
      ) {
        stopError ??= error;
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      const code = error instanceof PersonaForgeError ? error.code : 'ERROR';
      await journal.appendFailure(item.userId, reason, code);
      meter.failures++;
    }
    meter.done++;
    report();
  };

  for await (const item of items) {
    order.push(item.userId);
    if (finished.has(item.userId)) continue;
    if (stopError !== null || ctx.signal.aborted) break;
    const task = runOne(item).finally(() => inFlight.delete(task));
    inFlight.add(task);
    if (inFlight.size >= deps.concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  await journal.close();
  report(true);
  if (stopError !== null) throw stopError;
  if (ctx.signal.aborted)
    throw new StageError(stage.name, 'interrupted; run the same command again to resume');

  const entries = await journal.load();
  const quarantined: QuarantineRecord[] = [];
  let out = 0;
  await writeLinesAtomic(
    join(ctx.runDir, stage.output),
    (async function* () {
      for await (const entry of journal.readBack(order, entries)) {
        if (entry.ok) {
          out++;
          yield entry.json;
        } else {
          quarantined.push({
            stage: stage.name,
            inputId: entry.userId,
            reason: entry.reason,
            code: entry.code,
          });
        }
      }
    })(),
  );
  await journal.remove();
  return { in: order.length, out, quarantined };
}
