import { join, resolve } from 'node:path';
import { SystemsConfig } from '../export/systems/config.js';
import { createM2aBuilder } from '../export/systems/m2a.js';
import type { ReduceStage } from '../pipeline/types.js';
import { ExportConfig } from '../schemas/export-config.js';
import { PersonaTreeConfig } from '../schemas/memory-config.js';
import { type PlanConfig, resolvePlanSettings } from '../schemas/plan-config.js';
import { SynthConfig } from '../schemas/synth-config.js';
import { ValidateConfig } from '../schemas/validate-config.js';
import { writeJson } from '../util/fs.js';
import { defect } from './fidelity-figures.js';
import { RUN_FILES } from './run-lines.js';
import { validateRun } from './validate-run.js';

/**
 * The validate stage: reads plan, dialogues and memory, runs rule checks, judges and dedup,
 * quarantines failing users through the context and writes `<run-dir>/validation.json`. Users
 * are parsed and checked on `ctx.workers` threads (`validateRun`).
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
    const tree = PersonaTreeConfig.parse((ctx.config.memory as { tree?: unknown } | undefined)?.tree ?? {});
    const systems = SystemsConfig.parse(
      (ctx.config.export as { systems?: unknown } | undefined)?.systems ?? {},
    );
    const exportConfig = ExportConfig.parse(ctx.config.export ?? {});
    const behaviors = SynthConfig.parse(ctx.config.synth ?? {}).behaviors;
    // M²A merged conversations are built here as export will build them, and checked.
    const m2a = systems.m2a.enabled
      ? {
          builder: await createM2aBuilder({
            system: systems.m2a,
            export: exportConfig,
            synth: ctx.config.synth,
            seed: ctx.seed,
            llm: ctx.llm,
          }),
          splits: systems.m2a.splits,
        }
      : undefined;
    const { report, skipped } = await validateRun(ctx.runDir, {
      job: {
        config,
        qaWeights: resolvePlanSettings((ctx.config.plan ?? {}) as PlanConfig).qa.weights,
        ...(behaviors.enabled ? { behaviorNoiseRate: behaviors.noiseRate } : {}),
        exportConfig,
        ...(systems.vitabench.enabled ? { vitabench: { config: systems.vitabench, seed: ctx.seed } } : {}),
        tree: { schemaPath: tree.schemaPath, maxExtensionDepth: tree.maxExtensionDepth },
        poolDir,
        // Records this version wrote and nobody changed since are read without their schemas.
        trusted: {
          plan: (await ctx.unchangedOutput?.('plan', RUN_FILES.plan)) === true,
          synth: (await ctx.unchangedOutput?.('synth', RUN_FILES.synth)) === true,
          memory: (await ctx.unchangedOutput?.('memory', RUN_FILES.memory)) === true,
        },
      },
      llm: ctx.llm,
      ...(m2a === undefined ? {} : { m2a }),
      // Parsing and checking users run on worker threads (the same bytes as one thread).
      ...(ctx.workers === undefined ? {} : { workers: ctx.workers }),
      onSkip: (userId, reason) => ctx.quarantine({ inputId: userId, reason, check: 'input' }),
      onQuarantine: (record) => ctx.quarantine(record),
      onProgress: (done) => ctx.progress(done, 0),
      signal: ctx.signal,
    });
    // What a judge decided about the reader's unsure and contradicting readings when the synth
    // stage wrote the text (its counts, on the model path only).
    const synth = (await ctx.notesOf?.('synth')) as Record<string, number> | null | undefined;
    if (synth?.judgeSaysYes !== undefined && report.fidelity !== undefined) {
      const yes = synth.judgeSaysYes ?? 0;
      const no = synth.judgeSaysNo ?? 0;
      const opposite = synth.judgeSaysOpposite ?? 0;
      report.fidelity.meaning_judged_wrong = defect(
        'readings a judge was asked about at check-on-write that did not say the plan (it says the opposite, or does not say it): each regenerated',
        no + opposite,
        yes + no + opposite,
        100,
      );
      report.fidelity.meaning_judged_opposite = defect(
        'readings a judge found to say the opposite of the plan at check-on-write (planted or real contradictions, regenerated)',
        opposite,
        yes + no + opposite,
        100,
      );
    }
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
