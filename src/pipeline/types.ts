import type { z } from 'zod';
import type { LlmClient } from '../llm/types.js';
import type { QuarantineRecord } from '../schemas/common.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import type { Rng } from '../util/rng.js';
import type { RunReporter } from './progress.js';

/**
 * What a stage sees while it runs. Stages never touch process state: randomness, the model,
 * quarantine and progress all come through here.
 */
export interface StageContext {
  /** The run directory (`--out`). The stage writes under `<runDir>/<stage name>/`. */
  runDir: string;
  seed: number;
  config: PipelineConfig;
  llm: LlmClient;
  shard: { index: number; count: number } | null;
  /** Seeded stream keyed by the stage name plus `parts` (user id, purpose). */
  rng(...parts: Array<string | number>): Rng;
  /**
   * Threads a stage may use for CPU-bound work that calls no model (`--workers`, default one per
   * core); ≤ 1 keeps everything on the main thread. Outputs never depend on it.
   */
  workers?: number;
  /**
   * Whether an earlier stage's output file is exactly what this persona-forge version wrote and
   * recorded (its records conform to this version's schemas, so a reader may skip parsing each
   * one through its schema). Absent = never (every record is parsed).
   */
  unchangedOutput?(stage: string, file: string): Promise<boolean>;
  /** Keeps a failed record with its reason (written to `<runDir>/quarantine.jsonl`). */
  quarantine(record: Omit<QuarantineRecord, 'stage'>): void;
  /** Progress hint for reduce stages (map stages are counted by the runner). */
  progress(done: number, total: number): void;
  /**
   * Adds to a named count of this stage (e.g. synth's regenerations), reported in the stage's
   * `notes` in manifest.json. Absent where counts cannot be collected (offline worker threads).
   */
  count?(name: string, n: number): void;
  /** The `notes` an earlier stage of this run recorded (null when it recorded none). */
  notesOf?(stage: string): Promise<Record<string, unknown> | null>;
  signal: AbortSignal;
}

/**
 * A per-user stage: the runner streams the records of the `inputs` stages (joined by `userId`,
 * in input order), calls `process` for each, and writes the outputs to `output` in input order.
 * Resumable record by record; shardable by user.
 *
 * @example
 * const synth: MapStage<UserDialogue> = { kind: 'map', name: 'synth', inputs: ['plan'],
 *   output: 'dialogues/dialogues.jsonl', schema: UserDialogue, process: async ({ plan }, ctx) => … };
 */
export interface MapStage<Out = unknown> {
  kind: 'map';
  name: string;
  /** Names of earlier stages whose records are joined by userId; empty for the source stage. */
  inputs: string[];
  /** Output path relative to the run directory, e.g. `plan/plan.jsonl`. */
  output: string;
  /**
   * Other files or folders the stage writes (e.g. the image pool `plan/images`). They belong to
   * the stage's configuration: a run with another configuration removes them before the stage
   * runs again, and only they and `output` are listed in the manifest.
   */
  sideOutputs?: string[];
  schema: z.ZodType<Out>;
  /** Source stages list their work items (each with a `userId`); others leave it out. */
  source?(ctx: StageContext): Promise<Array<{ userId: string } & Record<string, unknown>>>;
  /** Returns the record for one user; throwing quarantines the user with the error's message. */
  process(inputs: Record<string, unknown>, ctx: StageContext): Promise<Out>;
  /**
   * The record as written to `output` (a storage form `schema` parses back, e.g. memory snapshots
   * as deltas). @default the record as is
   */
  encode?(record: Out): unknown;
  /**
   * Where worker threads load this stage from (its module URL and export name). When every model
   * role of the stage is offline the runner runs `process` in a pool of workers, one per core.
   */
  workerModule?: { url: string; exportName: string };
}

/** A whole-corpus stage (validate, export, report): reads what it needs, writes atomically. */
export interface ReduceStage {
  kind: 'reduce';
  name: string;
  inputs: string[];
  /** Output paths relative to the run directory (files or folders) for the manifest. */
  outputs: string[];
  /** What `in` and `out` count, for progress lines. @default users in, users out */
  units?: { in: string; out: string };
  run(
    ctx: StageContext,
  ): Promise<{ in: number; out: number; quarantined: number; notes?: Record<string, unknown> }>;
}

export type Stage = MapStage | ReduceStage;

/** A stage plus the model roles it may call (for offline/online labelling in the manifest). */
export interface StageEntry {
  stage: Stage;
  roles: string[];
}

export interface RunPipelineOptions {
  config: PipelineConfig;
  /** The pipeline file the config came from (recorded in the manifest). */
  configFile: string;
  outDir: string;
  llm: LlmClient;
  stages: Record<string, StageEntry>;
  shard?: { index: number; count: number } | null;
  /** Run only these stages of the pipeline's list (earlier outputs must exist). */
  only?: string[];
  /** Run these stages again even when a finished run of the same configuration exists. */
  force?: string[];
  reporter?: RunReporter;
  signal?: AbortSignal;
  /** Milliseconds clock, injectable for tests. @default Date.now */
  now?: () => number;
  /** Users processed at once in per-user stages. @default config.concurrency */
  concurrency?: number;
  /** Worker threads for offline CPU-bound map stages (1 = this thread only). @default the core count */
  workers?: number;
  /** Write into a non-empty folder that is not a persona-forge run (`--force`). @default false */
  adopt?: boolean;
}

export interface StageSummary {
  name: string;
  kind: 'map' | 'reduce';
  /** `empty`: the stage ran and every input was quarantined (the run stops after it). */
  status: 'done' | 'skipped' | 'not-run' | 'stopped' | 'failed' | 'empty';
  in: number;
  out: number;
  /** What `in` and `out` count. */
  units: { in: string; out: string };
  quarantined: number;
  offline: boolean;
  models: Record<string, string>;
  seconds: number;
  notes?: Record<string, unknown>;
}

export interface RunSummary {
  runDir: string;
  ok: boolean;
  stages: StageSummary[];
  message?: string;
}
