import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FidelityAlarm } from '../validate/alarms.js';
import { readFidelityAlarms } from '../validate/alarms.js';

/** Model calls, tokens and cost of one stage. */
export interface StageUsage {
  stage: string;
  /** Every role of the stage is served by the offline backend (no model, no cost). */
  offline: boolean;
  calls: number;
  cacheHits: number;
  tokens: number;
  /** Prompt tokens the endpoint reported serving from its prefix cache (0 when it does not report them). */
  cachedPromptTokens?: number;
  costUsd: number;
}

/** What a researcher reads before spending GPU hours on a run: what it is and whether to go. */
export interface RunHeader {
  name: string;
  version: string | null;
  commit: string | null;
  seed: number | null;
  configHash: string | null;
  /** Per model role: offline (deterministic backend) or the model that served it. */
  roles: Array<{ role: string; offline: boolean; model: string }>;
  stages: StageUsage[];
  totalCostUsd: number;
  /** Where the usage figures come from (manifest: every stage of the last invocation). */
  usageSource: string;
  alarms: FidelityAlarm[];
  /** `go` when nothing below argues against training on the run. */
  verdict: 'go' | 'no-go';
  /** Why not (empty for go). */
  reasons: string[];
}

/** What the running pipeline knows about itself (the report stage runs before the manifest is written). */
export interface LiveRun {
  name: string;
  version: string;
  commit: string | null;
  seed: number;
  configHash: string;
  roles: RunHeader['roles'];
  stages: StageUsage[];
  usageSource: string;
}

interface ManifestUsage {
  calls?: number;
  cacheHits?: number;
  promptTokens?: number;
  cachedPromptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
}

interface Manifest {
  version?: string;
  gitCommit?: string | null;
  seed?: number;
  status?: string;
  pipeline?: { name?: string; configHash?: string };
  offline?: Record<string, boolean>;
  stages?: Array<{ name: string; status?: string; offline?: boolean; models?: Record<string, string> }>;
  usage?: { byStage?: Record<string, ManifestUsage> };
}

/** Roles and per-stage usage as a manifest records them. */
function fromManifest(manifest: Manifest): LiveRun {
  const models = new Map<string, string>();
  for (const stage of manifest.stages ?? [])
    for (const [role, model] of Object.entries(stage.models ?? {})) models.set(role, model);
  const byStage = manifest.usage?.byStage ?? {};
  return {
    name: manifest.pipeline?.name ?? '',
    version: manifest.version ?? '',
    commit: manifest.gitCommit ?? null,
    seed: manifest.seed ?? Number.NaN,
    configHash: manifest.pipeline?.configHash ?? '',
    roles: Object.entries(manifest.offline ?? {}).map(([role, offline]) => ({
      role,
      offline,
      model: offline ? 'offline' : (models.get(role) ?? '?'),
    })),
    stages: (manifest.stages ?? []).map((stage) => {
      const usage = byStage[stage.name] ?? {};
      return {
        stage: stage.name,
        offline: stage.offline ?? true,
        calls: usage.calls ?? 0,
        cacheHits: usage.cacheHits ?? 0,
        tokens: (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0),
        cachedPromptTokens: usage.cachedPromptTokens ?? 0,
        costUsd: usage.costUsd ?? 0,
      };
    }),
    usageSource: 'manifest.json (the last invocation)',
  };
}

/**
 * The go/no-go header of a run: version, commit, seed, config hash, offline/online per role, model
 * calls, tokens and cost per stage, and the fidelity alarms. Reads `manifest.json` and
 * `validation.json` of a finished run; the report stage passes `live` (what the running pipeline
 * knows) because it runs before the manifest is written. Kept apart from any HTML so other views
 * (`persona-forge view`) show the same header.
 *
 * @example const header = await collectRunHeader('out/quickstart');
 */
export async function collectRunHeader(
  runDir: string,
  options: { live?: LiveRun; extraReasons?: string[] } = {},
): Promise<RunHeader> {
  let run = options.live;
  let status: string | undefined;
  if (run === undefined) {
    const manifest = JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
    run = fromManifest(manifest);
    status = manifest.status;
  }
  const alarms = await readFidelityAlarms(runDir);
  const reasons: string[] = [];
  if (status !== undefined && status !== 'complete')
    reasons.push(`the run is not complete (status: ${status})`);
  if (alarms.length > 0)
    reasons.push(
      `${alarms.length} fidelity figure${alarms.length === 1 ? '' : 's'} off target: ${alarms.map((a) => a.name).join(', ')}`,
    );
  reasons.push(...(options.extraReasons ?? []));
  return {
    name: run.name,
    version: run.version === '' ? null : run.version,
    commit: run.commit,
    seed: Number.isFinite(run.seed) ? run.seed : null,
    configHash: run.configHash === '' ? null : run.configHash,
    roles: run.roles,
    stages: run.stages,
    totalCostUsd: run.stages.reduce((sum, stage) => sum + stage.costUsd, 0),
    usageSource: run.usageSource,
    alarms,
    verdict: reasons.length === 0 ? 'go' : 'no-go',
    reasons,
  };
}
