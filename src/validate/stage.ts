import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SystemsConfig } from '../export/systems/config.js';
import { createM2aBuilder } from '../export/systems/m2a.js';
import { loadTreeSchema } from '../memory/tree/schema.js';
import type { ReduceStage } from '../pipeline/types.js';
import { ExportConfig } from '../schemas/export-config.js';
import { PersonaTreeConfig } from '../schemas/memory-config.js';
import { type PlanConfig, resolvePlanSettings } from '../schemas/plan-config.js';
import { ValidateConfig } from '../schemas/validate-config.js';
import { writeJson } from '../util/fs.js';
import { readRunBundles } from './read-run.js';
import { validateCorpus } from './validate-corpus.js';

/**
 * The validate stage: reads plan, dialogues and memory, runs rule checks, judges and dedup,
 * quarantines failing users through the context and writes `<run-dir>/validation.json`.
 *
 * @example await validateStage.run(ctx) // { in: 12, out: 11, quarantined: 1 }
 */
export const validateStage: ReduceStage = {
  kind: 'reduce',
  name: 'validate',
  inputs: ['plan', 'synth', 'memory'],
  outputs: ['validation.json'],
  async run(ctx) {
    const config = ValidateConfig.parse(ctx.config.validate ?? {});
    const poolDir = config.imagePoolDir === null ? null : resolve(ctx.runDir, config.imagePoolDir);
    let skipped = 0;
    const users = readRunBundles(ctx.runDir, {
      onSkip: (userId, reason) => {
        skipped++;
        ctx.quarantine({ inputId: userId, reason, check: 'input' });
      },
    });
    const tree = PersonaTreeConfig.parse((ctx.config.memory as { tree?: unknown } | undefined)?.tree ?? {});
    const systems = SystemsConfig.parse(
      (ctx.config.export as { systems?: unknown } | undefined)?.systems ?? {},
    );
    // M²A merged conversations are built here as export will build them, and checked.
    const m2a = systems.m2a.enabled
      ? {
          builder: await createM2aBuilder({
            system: systems.m2a,
            export: ExportConfig.parse(ctx.config.export ?? {}),
            synth: ctx.config.synth,
            seed: ctx.seed,
            llm: ctx.llm,
          }),
          splits: systems.m2a.splits,
        }
      : undefined;
    const report = await validateCorpus(users, {
      config,
      qaWeights: resolvePlanSettings((ctx.config.plan ?? {}) as PlanConfig).qa.weights,
      exportConfig: ExportConfig.parse(ctx.config.export ?? {}),
      ...(systems.vitabench.enabled ? { vitabench: { config: systems.vitabench, seed: ctx.seed } } : {}),
      ...(m2a === undefined ? {} : { m2a }),
      tree: { schema: loadTreeSchema(tree.schemaPath), maxExtensionDepth: tree.maxExtensionDepth },
      llm: ctx.llm,
      imageExists: (path) => poolDir !== null && existsSync(join(poolDir, path)),
      onQuarantine: (record) => ctx.quarantine(record),
      onProgress: (done) => ctx.progress(done, 0),
      signal: ctx.signal,
    });
    await writeJson(join(ctx.runDir, 'validation.json'), report);
    return {
      in: report.totals.users + skipped,
      out: report.totals.users - report.totals.quarantinedUsers,
      quarantined: report.totals.quarantinedUsers,
      notes: {
        ruleFailures: report.totals.ruleFailures,
        judgeFailures: report.totals.judgeFailures,
        judgeMode: report.judgeMode,
      },
    };
  },
};
