import { setMaxListeners } from 'node:events';
import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { BudgetExceededError, EmptyResultError, StageError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import type { QuarantineRecord } from '../schemas/common.js';
import { collectGarbage } from '../util/gc.js';
import { hashValue, stableStringify } from '../util/hash.js';
import { createRng } from '../util/rng.js';
import { acquireRunLock } from './lock.js';
import { outputDigests, outputsMatch, packageVersion } from './manifest.js';
import { checkOutDir } from './out-dir.js';
import {
  declaredOutputs,
  journalExists,
  removeStrayTempFiles,
  resetJournalIfStale,
  stageOutputs,
  usersIn,
  writeManifest,
  writeRunQuarantine,
} from './run-files.js';

export { stageOutputs };

import { reopenMapStage, retryableQuarantined } from './reopen.js';
import { runMapStage } from './run-map-stage.js';
import { runStatus, topReasons } from './run-status.js';

import {
  clearMarker,
  readMarker,
  stageFingerprints,
  stateDir,
  writeLinesAtomic,
  writeMarker,
  writtenByThisVersion,
} from './stage-state.js';
import type { RunPipelineOptions, RunSummary, Stage, StageContext, StageSummary } from './types.js';
import { createMapWorkerPool } from './worker-pool.js';

/**
 * Runs the pipeline's stages in order into `outDir`, resuming whatever a previous run of the
 * same configuration finished, and writes `manifest.json` and `quarantine.jsonl`.
 *
 * @example
 * const { config } = await loadPipeline('pipelines/quickstart.yaml');
 * await runPipeline({ config, configFile: 'pipelines/quickstart.yaml', outDir: 'out/q', llm, stages: defaultStages });
 */
export async function runPipeline(options: RunPipelineOptions): Promise<RunSummary> {
  const runDir = resolve(options.outDir);
  await checkOutDir(runDir, {
    adopt: options.adopt === true,
    writes: declaredOutputs(options.config.stages, options.stages),
  });
  const release = await acquireRunLock(runDir, `run ${options.configFile}`);
  try {
    return await runPipelineLocked(options, runDir);
  } finally {
    await release();
  }
}

async function runPipelineLocked(options: RunPipelineOptions, runDir: string): Promise<RunSummary> {
  const { config, llm } = options;
  const now = options.now ?? Date.now;
  const reporter = options.reporter ?? (() => {});
  const signal = options.signal ?? new AbortController().signal;
  // Every in-flight model call listens on the run's signal; hundreds at once are expected.
  setMaxListeners(0, signal);
  const shard = options.shard ?? null;
  const startedAt = new Date(now()).toISOString();
  const started = now();
  await mkdir(stateDir(runDir), { recursive: true });
  await removeStrayTempFiles(runDir, declaredOutputs(config.stages, options.stages));

  const names = config.stages.filter((name) => options.only === undefined || options.only.includes(name));
  reporter({
    type: 'run-start',
    runDir,
    stages: names,
    seed: config.seed,
    shard: shard === null ? null : `${shard.index}/${shard.count}`,
  });

  const configHash = hashValue(config);
  const fingerprints = stageFingerprints(config, shard);
  const outputs: Record<string, string> = {};
  const summaries: StageSummary[] = [];
  let failure: { message: string; error: unknown } | null = null;
  // Set once a stage that ran wrote other outputs than its last finished run: later stages run.
  let upstreamChanged = false;

  for (const name of config.stages) {
    const entry = options.stages[name];
    if (entry === undefined) {
      throw new StageError(name, 'no such stage is registered', {
        hint: `known stages: ${Object.keys(options.stages).join(', ')}`,
      });
    }
    const { stage } = entry;
    if (stage.kind === 'map') outputs[name] = join(runDir, stage.output);
    const fingerprint = fingerprints[name] as string;
    const models = Object.fromEntries(entry.roles.map((role) => [role, llm.modelFor(role)]));
    const offline = entry.roles.every((role) => llm.isOffline(role));
    const units = stageUnits(stage);
    const base = {
      name,
      kind: stage.kind,
      in: 0,
      out: 0,
      units,
      quarantined: 0,
      offline,
      models,
      seconds: 0,
    };

    if (failure !== null || !names.includes(name)) {
      const marker = await readMarker(runDir, name);
      summaries.push(
        marker !== null && marker.fingerprint === fingerprint
          ? { ...base, status: 'done', in: marker.in, out: marker.out, quarantined: marker.quarantined }
          : { ...base, status: 'not-run' },
      );
      continue;
    }
    if (stage.kind === 'reduce' && shard !== null) {
      reporter({
        type: 'stage-skip',
        stage: name,
        reason: 'whole-corpus stage: run `persona-forge merge` on the shards',
      });
      summaries.push({ ...base, status: 'not-run' });
      continue;
    }
    const marker = await readMarker(runDir, name);
    // Skipped only when the outputs are still the files the marker recorded (a truncated,
    // edited or deleted output makes the stage run again).
    const finished =
      marker !== null &&
      marker.fingerprint === fingerprint &&
      options.force?.includes(name) !== true &&
      marker.files !== undefined &&
      (await outputsMatch(runDir, stageOutputs(stage), marker.files));
    // A finished stage is re-opened when it holds users quarantined for a reason that may have
    // passed, or a stage before it changed its output (users came back): those users only run.
    const retry = stage.kind === 'map' && finished ? await retryableQuarantined(runDir, name) : [];
    if (finished && stage.kind === 'map' && (retry.length > 0 || upstreamChanged)) {
      // (stage-start then counts everyone else as resumed.)
      await reopenMapStage(runDir, stage, fingerprint);
    } else if (finished && !upstreamChanged) {
      reporter({ type: 'stage-skip', stage: name, reason: 'already complete for this configuration' });
      summaries.push({
        ...base,
        status: 'skipped',
        in: marker.in,
        out: marker.out,
        quarantined: marker.quarantined,
      });
      continue;
    }
    await clearMarker(runDir, name);
    // The stage starts on a collected heap, not on the previous stage's garbage.
    collectGarbage();
    const fresh = await resetJournalIfStale(runDir, name, fingerprint);
    // Outputs of another configuration (or of an earlier run of a whole-corpus stage) go before
    // the stage runs, so the directory holds exactly what this configuration produces.
    if (fresh || stage.kind === 'reduce' || !(await journalExists(runDir, name))) {
      for (const path of stageOutputs(stage)) await rm(join(runDir, path), { recursive: true, force: true });
    }
    // Reduce stages count the users of their inputs (the last per-user output they read).
    const reduceTotal = stage.kind === 'reduce' ? await usersIn(stage.inputs, outputs) : 0;

    const quarantine: QuarantineRecord[] = [];
    // Reduce stages report done/total; the rate and ETA are measured here from the first report.
    const progressStarted = now();
    const counts: Record<string, number> = {};
    const ctx: StageContext = {
      notesOf: async (stage) => (await readMarker(runDir, stage))?.notes ?? null,
      count: (key, n) => {
        counts[key] = (counts[key] ?? 0) + n;
      },
      runDir,
      seed: config.seed,
      config,
      llm,
      shard,
      rng: (...parts) => createRng(config.seed, name, ...parts),
      workers: options.workers ?? availableParallelism(),
      unchangedOutput: (stage, file) => writtenByThisVersion(runDir, stage, file),
      quarantine: (record) => quarantine.push({ stage: name, ...record }),
      progress: (done, total) => {
        const known = total > 0 ? total : reduceTotal;
        const shown = known > 0 ? Math.min(done, known) : done;
        const seconds = (now() - progressStarted) / 1000;
        const rate = seconds > 0 ? shown / seconds : 0;
        reporter({
          type: 'stage-progress',
          stage: name,
          unit: units.in,
          done: shown,
          total: known,
          failures: quarantine.length,
          ratePerSec: rate,
          etaSec: rate > 0 && known > 0 ? Math.max(0, known - shown) / rate : null,
          ...usageFigures(llm),
        });
      },
      signal,
    };
    const stageStarted = now();
    try {
      let result: { in: number; out: number; notes?: Record<string, unknown> };
      if (stage.kind === 'map') {
        // CPU-bound offline work runs on every core: the same bytes as in one thread.
        const workers = options.workers ?? availableParallelism();
        const pool =
          stage.workerModule !== undefined && workers > 1 && entry.roles.every((role) => llm.isOffline(role))
            ? createMapWorkerPool(workers, {
                module: stage.workerModule.url,
                exportName: stage.workerModule.exportName,
                config,
                runDir,
                shard,
              })
            : undefined;
        try {
          const run = await runMapStage(stage, {
            ctx,
            outputs,
            concurrency: pool === undefined ? (options.concurrency ?? config.concurrency) : 2 * pool.size,
            reporter,
            now,
            usage: () => usageFigures(llm),
            ...(pool === undefined ? {} : { pool }),
          });
          quarantine.push(...run.quarantined);
          result = Object.keys(counts).length === 0 ? run : { ...run, notes: { ...counts } };
        } finally {
          await pool?.close();
        }
      } else {
        reporter({ type: 'stage-start', stage: name, total: reduceTotal, resumed: 0, unit: units.in });
        const run = await stage.run(ctx);
        result = run;
      }
      await writeLinesAtomic(
        join(stateDir(runDir), `${name}.quarantine.jsonl`),
        quarantine.map((record) => stableStringify(record)),
      );
      const seconds = (now() - stageStarted) / 1000;
      reporter({
        type: 'stage-end',
        stage: name,
        in: result.in,
        out: result.out,
        units,
        quarantined: quarantine.length,
        seconds,
        offline,
      });
      const done = {
        ...base,
        in: result.in,
        out: result.out,
        quarantined: quarantine.length,
        seconds,
        ...(result.notes === undefined ? {} : { notes: result.notes }),
      };
      if (result.in > 0 && result.out === 0) {
        // Nothing left to carry on with: stop here, say why, keep every reason.
        summaries.push({ ...done, status: 'empty' });
        const error = new EmptyResultError(name, result.in, topReasons(quarantine, 3));
        failure = { message: error.message, error };
      } else {
        const files = await outputDigests(runDir, stageOutputs(stage));
        if (marker === null || stableStringify(marker.files ?? {}) !== stableStringify(files))
          upstreamChanged = true;
        await writeMarker(runDir, {
          stage: name,
          fingerprint,
          in: result.in,
          out: result.out,
          quarantined: quarantine.length,
          offline,
          ...(result.notes === undefined ? {} : { notes: result.notes }),
          version: await packageVersion(),
          files,
        });
        summaries.push({ ...done, status: 'done' });
      }
    } catch (error) {
      const stopped = error instanceof BudgetExceededError || signal.aborted;
      summaries.push({
        ...base,
        status: stopped ? 'stopped' : 'failed',
        seconds: (now() - stageStarted) / 1000,
      });
      failure = { message: error instanceof Error ? error.message : String(error), error };
    }
    await writeRunQuarantine(runDir, config.stages);
  }

  await writeRunQuarantine(runDir, config.stages);
  const summary: RunSummary = {
    runDir,
    ok: failure === null,
    stages: summaries,
    ...(failure === null ? {} : { message: failure.message }),
  };
  await writeManifest(runDir, options, summary, {
    startedAt,
    finishedAt: new Date(now()).toISOString(),
    configHash,
    status: runStatus(summary, failure?.error),
  });
  reporter({
    type: 'run-end',
    ok: summary.ok,
    runDir,
    status: runStatus(summary, failure?.error),
    seconds: (now() - started) / 1000,
    ...(failure === null ? {} : { message: failure.message }),
  });
  if (failure !== null) throw failure.error;
  return summary;
}

function usageFigures(llm: LlmClient): { tokens: number; costUsd: number; cacheHits: number } {
  const total = llm.usage().total;
  return {
    tokens: total.promptTokens + total.completionTokens,
    costUsd: total.costUsd,
    cacheHits: total.cacheHits,
  };
}

/** What a stage's `in` and `out` count. */
function stageUnits(stage: Stage): { in: string; out: string } {
  return stage.kind === 'reduce'
    ? (stage.units ?? { in: 'users', out: 'users' })
    : { in: 'users', out: 'users' };
}
