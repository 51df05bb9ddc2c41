import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { VitaBenchSystemConfig } from '../export/systems/config.js';
import { loadTreeSchema } from '../memory/tree/schema.js';
import type { ExportConfig } from '../schemas/export-config.js';
import type { ValidateConfig } from '../schemas/validate-config.js';
import { type CheckUserEnv, checkUser, type UserCheck } from './check-user.js';
import { parseRunLines, type RunLines, type TrustedFiles } from './run-lines.js';
import { indexUser } from './types.js';
import { corpusSetup, type ValidateCorpusOptions } from './validate-corpus.js';

/**
 * The settings every user's check reads, as structured-cloneable data: what a worker thread
 * receives once (`ThreadPoolOptions.data`), and what the main thread builds the same checks from.
 */
export interface ValidateJobData {
  config: ValidateConfig;
  exportConfig: ExportConfig;
  qaWeights: Record<string, number>;
  /** `synth.behaviors.noiseRate` when behaviour logs are on. */
  behaviorNoiseRate?: number;
  vitabench?: { config: VitaBenchSystemConfig; seed: number };
  /** The PersonaTree schema file (null: Inside Out's English tree) and extension depth. */
  tree: { schemaPath: string | null; maxExtensionDepth: number };
  /** Absolute image pool folder, or null when `imagePoolDir` is not set (images are not looked up). */
  poolDir: string | null;
  /** Run files read without their schemas (see `TrustedFiles`). @default none */
  trusted?: TrustedFiles;
}

/** The `validateCorpus` options the job data stands for (the rule and fidelity settings). */
export function corpusOptionsOf(data: ValidateJobData): ValidateCorpusOptions {
  const { poolDir } = data;
  return {
    config: data.config,
    qaWeights: data.qaWeights,
    ...(data.behaviorNoiseRate === undefined ? {} : { behaviorNoiseRate: data.behaviorNoiseRate }),
    exportConfig: data.exportConfig,
    ...(data.vitabench === undefined ? {} : { vitabench: data.vitabench }),
    tree: { schema: loadTreeSchema(data.tree.schemaPath), maxExtensionDepth: data.tree.maxExtensionDepth },
    imageExists: (path) => poolDir !== null && existsSync(join(poolDir, path)),
  };
}

/** What a worker answers for one user: a skip reason, a line that is not JSON, or the user's check. */
export type ValidateJobResult =
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid-json'; file: 'plan' | 'synth' | 'memory'; line: number; message: string }
  | { kind: 'user'; check: UserCheck };

/** One user's lines → parsed, indexed and checked (`env` runs offline judges, or none). */
export async function validateUserLines(
  lines: RunLines,
  env: CheckUserEnv,
  trusted?: TrustedFiles,
): Promise<ValidateJobResult> {
  const parsed = parseRunLines(lines, trusted);
  if (parsed.kind !== 'bundle') return parsed;
  return { kind: 'user', check: await checkUser(indexUser(parsed.bundle), env) };
}

let workerEnv: CheckUserEnv | null = null;

/**
 * The worker-thread handler (src/util/thread-pool.ts): checks one user from its raw lines. The
 * judges run here only when they are offline heuristics (`judgesHere`); a judge model is called
 * from the main thread.
 */
export function validateUserJob(
  lines: RunLines,
  data: ValidateJobData & { judgesHere: boolean },
): Promise<ValidateJobResult> {
  if (workerEnv === null) {
    const { env } = corpusSetup(corpusOptionsOf(data));
    workerEnv = data.judgesHere ? env : { ...env, judges: null };
  }
  return validateUserLines(lines, workerEnv, data.trusted);
}
