import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadPipeline } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { applyLlmOverride, createLlmClient } from '../llm/index.js';
import { assertBudgetEnforceable, withPrices } from '../llm/known-prices.js';
import { probeLlmConfig } from '../llm/probe-endpoint.js';
import { PipelineConfig } from '../schemas/pipeline.js';
import { acquireRunLock } from './lock.js';
import { mergeShards } from './merge.js';
import { checkOutDir } from './out-dir.js';
import type { RunReporter } from './progress.js';
import { defaultStages } from './registry.js';
import { runPipeline } from './runner.js';
import type { RunSummary, StageEntry } from './types.js';

export interface RunFileOptions {
  outDir: string;
  seed?: number;
  shard?: { index: number; count: number } | null;
  /** Points every model role at one OpenAI-compatible endpoint (overrides the file). */
  llm?: { baseUrl: string; model: string; apiKeyEnv?: string };
  budgetUsd?: number;
  /** Worker threads for offline CPU-bound stages. @default the core count */
  workers?: number;
  reporter?: RunReporter;
  signal?: AbortSignal;
  /** Run only these stages of the pipeline. */
  only?: string[];
  /** Run these stages even if they already finished with this configuration. */
  force?: string[];
  /** Write into a non-empty folder that is not a persona-forge run (`--force`). @default false */
  adopt?: boolean;
  stages?: Record<string, StageEntry>;
  env?: Record<string, string | undefined>;
  /** A partial pipeline deep-merged over the file (as if it were the last `extends:` layer). */
  overrides?: unknown;
  /**
   * Probe every endpoint the stages to run use (`/models` and one tiny request) before any model
   * call, so a wrong URL, model or key stops in seconds (`persona-forge run` does). @default false
   */
  probe?: boolean;
  /** Prices for endpoints that have none (`--price-input-per-m` / `--price-output-per-m`). */
  prices?: { inputPerM?: number; outputPerM?: number };
}

/**
 * Loads a pipeline file and runs it: the library call behind `persona-forge run`.
 *
 * @example
 * await runPipelineFile('pipelines/quickstart.yaml', { outDir: 'out/quickstart' });
 */
export async function runPipelineFile(file: string, options: RunFileOptions): Promise<RunSummary> {
  const loaded = await loadPipeline(file, {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
  });
  let config = loaded.config;
  if (options.seed !== undefined) config = { ...config, seed: options.seed };
  return runConfig(config, file, options);
}

/**
 * Runs stages of an existing run directory again with the configuration recorded in its
 * manifest: the call behind `persona-forge memory|validate|export|report <run-dir>`.
 */
export async function runStagesInDir(
  runDir: string,
  only: string[],
  options: Omit<RunFileOptions, 'outDir' | 'only'> = {},
): Promise<RunSummary> {
  const config = await readRunConfig(runDir);
  // Naming a stage on the command line means "run it again", even if it already finished.
  return runConfig(config, join(runDir, 'manifest.json'), { ...options, outDir: runDir, only, force: only });
}

/** The resolved pipeline configuration recorded in a run directory's manifest. */
export async function readRunConfig(runDir: string): Promise<PipelineConfig> {
  const path = join(resolve(runDir), 'manifest.json');
  let manifest: { config?: unknown };
  try {
    manifest = JSON.parse(await readFile(path, 'utf8')) as { config?: unknown };
  } catch (error) {
    throw new InputError(path, 'not a persona-forge run directory (no readable manifest.json)', {
      cause: error,
      hint: 'run `persona-forge run <pipeline.yaml> --out <dir>` first',
    });
  }
  const parsed = PipelineConfig.safeParse(manifest.config);
  if (!parsed.success) throw new InputError(path, `recorded config is invalid: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Merges shard run directories and runs the whole-corpus stages on the result: the call
 * behind `persona-forge merge <dirs…> --out <dir>`.
 */
export async function mergeAndFinish(
  dirs: string[],
  outDir: string,
  options: Omit<RunFileOptions, 'outDir'> = {},
): Promise<RunSummary> {
  const stages = options.stages ?? defaultStages;
  await checkOutDir(resolve(outDir), { adopt: options.adopt === true });
  const release = await acquireRunLock(resolve(outDir), 'merge');
  try {
    const config = await mergeShards(dirs, outDir, stages);
    return await runConfig(config, join(dirs[0] as string, 'manifest.json'), {
      ...options,
      outDir,
      shard: null,
      stages,
      // checked above, before the shards were copied in
      adopt: true,
    });
  } finally {
    await release();
  }
}

async function runConfig(config: PipelineConfig, file: string, options: RunFileOptions): Promise<RunSummary> {
  let llmConfig = config.llm;
  if (options.llm !== undefined) {
    llmConfig = applyLlmOverride(llmConfig, options.llm);
    config = { ...config, llm: llmConfig };
  }
  const stages = options.stages ?? defaultStages;
  const names = options.only ?? config.stages;
  const roles = [...new Set(names.flatMap((name) => stages[name]?.roles ?? []))];
  // Prices from the flags or the known hosted models; a budget nothing is priced in is refused.
  const priced = withPrices(llmConfig, options.prices);
  assertBudgetEnforceable(priced, options.budgetUsd, roles);
  if (options.probe === true) {
    await probeLlmConfig(priced, roles, options.env === undefined ? {} : { env: options.env });
  }
  const llm = createLlmClient(priced, {
    cacheDir: resolve(llmConfig.cache.dir),
    ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  return runPipeline({
    config,
    configFile: file,
    outDir: options.outDir,
    llm,
    stages,
    shard: options.shard ?? null,
    ...(options.only === undefined ? {} : { only: options.only }),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.force === undefined ? {} : { force: options.force }),
    ...(options.adopt === undefined ? {} : { adopt: options.adopt }),
    ...(options.reporter === undefined ? {} : { reporter: options.reporter }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
