import { parentPort, workerData } from 'node:worker_threads';
import { createLlmClient } from '../llm/index.js';
import { LlmConfig } from '../schemas/llm-config.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { createRng } from '../util/rng.js';
import { schemaFailure } from './run-map-stage.js';
import type { MapStage, StageContext } from './types.js';

/**
 * One worker of a map-stage pool (see worker-pool.ts): loads the stage from its module, then
 * for each user runs `process`, validates against the stage schema, encodes, and sends back the
 * record's JSON text — the main thread only journals it. Used only when every model role of the
 * stage is offline, so the worker's offline client answers exactly as the main thread's would.
 */
export interface MapWorkerInit {
  module: string;
  exportName: string;
  config: PipelineConfig;
  runDir: string;
  shard: { index: number; count: number } | null;
}

export type MapWorkerReply =
  | { id: number; ok: true; json: string }
  | { id: number; ok: false; reason: string; code: string; stop: boolean };

const init = workerData as MapWorkerInit;
const stage = (await import(init.module))[init.exportName] as MapStage;
const controller = new AbortController();
const ctx: StageContext = {
  runDir: init.runDir,
  seed: init.config.seed,
  config: init.config,
  llm: createLlmClient(LlmConfig.parse({}), { cache: false }),
  shard: init.shard,
  rng: (...parts) => createRng(init.config.seed, stage.name, ...parts),
  quarantine: () => {},
  progress: () => {},
  signal: controller.signal,
};

parentPort?.on('message', async (message: { id: number; records: Record<string, unknown> }) => {
  let reply: MapWorkerReply;
  try {
    const record = await stage.process(message.records, ctx);
    const parsed = stage.schema.safeParse(record);
    if (!parsed.success) {
      reply = { id: message.id, ok: false, reason: schemaFailure(parsed.error), code: 'SCHEMA', stop: false };
    } else {
      const stored = stage.encode === undefined ? parsed.data : stage.encode(parsed.data);
      reply = { id: message.id, ok: true, json: JSON.stringify(stored) };
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const name = (error as Error).constructor?.name ?? '';
    reply = {
      id: message.id,
      ok: false,
      reason: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : 'ERROR',
      stop: name === 'RunStopError' || name === 'BudgetExceededError' || code === 'DISK_FULL',
    };
  }
  parentPort?.postMessage(reply);
});
