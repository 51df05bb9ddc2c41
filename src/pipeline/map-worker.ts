import { createLlmClient } from '../llm/index.js';
import { LlmConfig } from '../schemas/llm-config.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { createRng } from '../util/rng.js';
import { schemaFailure } from './run-map-stage.js';
import type { MapStage, StageContext } from './types.js';

/**
 * A map stage as a worker-thread job handler (see worker-pool.ts): for each user it runs
 * `process`, validates against the stage schema, encodes, and returns the record's JSON text —
 * the main thread only journals it. Used only when every model role of the stage is offline,
 * so the worker's offline client answers exactly as the main thread's would.
 */
export interface MapWorkerInit {
  module: string;
  exportName: string;
  config: PipelineConfig;
  runDir: string;
  shard: { index: number; count: number } | null;
}

export type MapWorkerReply =
  | { ok: true; json: string }
  | { ok: false; reason: string; code: string; stop: boolean };

/**
 * Turns a map stage into the handler a pool worker runs (`(records, init) => reply`); the
 * stage's context is made on the first job, from the pool's `init`.
 *
 * @example createThreadPool({ size: 2, module: stageUrl, exportName: 'memoryStage', wrap: { module: mapWorkerUrl, exportName: 'mapStageHandler' }, data: init });
 */
export function mapStageHandler(stage: MapStage) {
  let ctx: StageContext | null = null;
  const contextFor = (init: MapWorkerInit): StageContext => ({
    runDir: init.runDir,
    seed: init.config.seed,
    config: init.config,
    llm: createLlmClient(LlmConfig.parse({}), { cache: false }),
    shard: init.shard,
    rng: (...parts) => createRng(init.config.seed, stage.name, ...parts),
    quarantine: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  });
  return async (records: Record<string, unknown>, init: MapWorkerInit): Promise<MapWorkerReply> => {
    ctx ??= contextFor(init);
    try {
      const record = await stage.process(records, ctx);
      const parsed = stage.schema.safeParse(record);
      if (!parsed.success)
        return { ok: false, reason: schemaFailure(parsed.error), code: 'SCHEMA', stop: false };
      const stored = stage.encode === undefined ? parsed.data : stage.encode(parsed.data);
      return { ok: true, json: JSON.stringify(stored) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const name = (error as Error).constructor?.name ?? '';
      return {
        ok: false,
        reason: error instanceof Error ? error.message : String(error),
        code: typeof code === 'string' ? code : 'ERROR',
        stop: name === 'RunStopError' || name === 'BudgetExceededError' || code === 'DISK_FULL',
      };
    }
  };
}
