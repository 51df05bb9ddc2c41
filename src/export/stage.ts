import type { ReduceStage } from '../pipeline/types.js';
import { ExportConfig } from '../schemas/export-config.js';
import { exportDataset } from './export-dataset.js';
import { exportSystems } from './systems/index.js';

const total = (counts: Record<string, Record<string, number>>) =>
  Object.values(counts).reduce((sum, byTask) => sum + Object.values(byTask).reduce((a, b) => a + b, 0), 0);

/**
 * The export stage: writes `<run-dir>/export/` (SFT / RL jsonl + parquet, evaluation sets,
 * dataset card) from the plan, dialogue and memory records, leaving out quarantined users.
 *
 * @example await exportStage.run(ctx) // { in: 12, out: 840, quarantined: 0, notes: { excludedUsers: 1, … } }
 */
export const exportStage: ReduceStage = {
  kind: 'reduce',
  name: 'export',
  inputs: ['plan', 'synth', 'memory', 'validate'],
  outputs: ['export'],
  async run(ctx) {
    const config = ExportConfig.parse(ctx.config.export ?? {});
    const summary = await exportDataset(ctx.runDir, {
      config,
      seed: ctx.seed,
      generation: {
        pipeline: ctx.config.name,
        realizer_model: ctx.llm.modelFor('realizer'),
        judge_model: ctx.llm.modelFor('judge'),
      },
    });
    // Published-system sets (export.systems: M²A, VitaBench), after the rest of export.
    const systems = await exportSystems(ctx, config);
    return {
      in: summary.users.train + summary.users.test + summary.excluded,
      out: total(summary.sft) + total(summary.rl),
      // Users left out were quarantined by validate; export itself quarantines nobody.
      quarantined: 0,
      notes: {
        sft: summary.sft,
        rl: summary.rl,
        eval: summary.eval,
        users: summary.users,
        excludedUsers: summary.excluded,
        systems,
      },
    };
  },
};
