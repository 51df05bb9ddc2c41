/**
 * Published-system evaluation sets written by the export stage when enabled under
 * `export.systems`: M²A merged conversations and VitaBench 2.0 personalization tasks.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StageContext } from '../../pipeline/types.js';
import type { ExportConfig } from '../../schemas/export-config.js';
import { type ExportBundle, readExportBundles } from '../read-run.js';
import { SystemsConfig } from './config.js';
import { exportM2a } from './m2a.js';
import { exportVitaBench } from './vitabench.js';

export { M2aSystemConfig, SystemsConfig, VitaBenchSystemConfig } from './config.js';
export {
  buildM2aSample,
  createM2aBuilder,
  exportM2a,
  type M2aBuilder,
  type M2aBuilt,
  type M2aExportOptions,
  type M2aSampleReport,
  readLocomoHost,
} from './m2a.js';
export { injectVisualQa, locomoToM2a, type M2aQa, type M2aSample, type M2aTurn } from './m2a-shape.js';
export {
  buildVitaBenchTask,
  changeHistory,
  currentTags,
  exportVitaBench,
  type PersonalizationTask,
  type PreferenceTagChange,
  preferenceTag,
  type VitaSubTask,
  vitaTime,
} from './vitabench.js';

export interface SystemsSummary {
  m2a?: { samples: number; questions: number; skipped: number };
  vitabench?: { tasks: number; subtasks: number };
}

/** Users validate quarantined (`validation.json`), left out like the rest of export. */
async function quarantined(runDir: string): Promise<Set<string>> {
  const path = join(runDir, 'validation.json');
  if (!existsSync(path)) return new Set();
  const report = JSON.parse(await readFile(path, 'utf8')) as { quarantined?: Array<{ userId: string }> };
  return new Set((report.quarantined ?? []).map((entry) => entry.userId));
}

async function* inSplits(
  runDir: string,
  exclude: Set<string>,
  splits: readonly string[],
): AsyncGenerator<ExportBundle> {
  for await (const bundle of readExportBundles(runDir, exclude))
    if (splits.includes(bundle.plan.split)) yield bundle;
}

/**
 * Writes the enabled system sets under `<runDir>/export/eval/`: `m2a/merged.json` +
 * `m2a/report.json`, `vitabench/tasks.json`. Called by the export stage after its own work;
 * does nothing when both are disabled (the default).
 *
 * @example const summary = await exportSystems(ctx, ExportConfig.parse(ctx.config.export));
 */
export async function exportSystems(
  ctx: Pick<StageContext, 'runDir' | 'seed' | 'config' | 'llm'>,
  config: ExportConfig,
): Promise<SystemsSummary> {
  const systems = SystemsConfig.parse(config.systems ?? {});
  const summary: SystemsSummary = {};
  if (!systems.m2a.enabled && !systems.vitabench.enabled) return summary;
  const exclude = await quarantined(ctx.runDir);
  const evalDir = join(ctx.runDir, 'export', 'eval');
  if (systems.m2a.enabled) {
    summary.m2a = await exportM2a(inSplits(ctx.runDir, exclude, systems.m2a.splits), join(evalDir, 'm2a'), {
      system: systems.m2a,
      export: config,
      synth: ctx.config.synth,
      seed: ctx.seed,
      llm: ctx.llm,
    });
  }
  if (systems.vitabench.enabled) {
    summary.vitabench = await exportVitaBench(
      inSplits(ctx.runDir, exclude, systems.vitabench.splits),
      join(evalDir, 'vitabench'),
      systems.vitabench,
      ctx.seed,
    );
  }
  return summary;
}
