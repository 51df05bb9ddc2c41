import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReduceStage } from '../pipeline/types.js';
import { ExportConfig } from '../schemas/export-config.js';
import { writeFileAtomic } from '../util/fs.js';
import { exportDataset } from './export-dataset.js';
import { EXPORT_INPUTS } from './read-run.js';
import { exportSystems, type SystemsSummary } from './systems/index.js';

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
  units: { in: 'users', out: 'samples' },
  async run(ctx) {
    const config = ExportConfig.parse(ctx.config.export ?? {});
    const summary = await exportDataset(ctx.runDir, {
      config,
      seed: ctx.seed,
      // Plans and dialogues this version wrote and nobody changed since are not parsed again.
      trustedRecords:
        (await ctx.unchangedOutput?.('plan', EXPORT_INPUTS.plan)) === true &&
        (await ctx.unchangedOutput?.('synth', EXPORT_INPUTS.synth)) === true,
      // Scanning users and rendering rows run on worker threads (the same bytes as one thread).
      ...(ctx.workers === undefined ? {} : { workers: ctx.workers }),
      generation: {
        pipeline: ctx.config.name,
        realizer_model: ctx.llm.modelFor('realizer'),
        judge_model: ctx.llm.modelFor('judge'),
      },
    });
    // Published-system sets (export.systems: M²A, VitaBench), after the rest of export.
    const systems = await exportSystems(ctx, config);
    await appendSystemsToCard(join(ctx.runDir, 'export', 'README.md'), systems);
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

/** The dataset card is written before the published-system sets exist: list them afterwards. */
async function appendSystemsToCard(card: string, systems: SystemsSummary): Promise<void> {
  const lines: string[] = [];
  if (systems.m2a !== undefined) {
    lines.push(
      `- \`eval/m2a/merged.json\`: ${systems.m2a.samples} M²A conversations (concept sessions interpolated into the host), ${systems.m2a.questions} questions in categories 1–9; \`eval/m2a/report.json\` has the insertion times (${systems.m2a.skipped} users skipped).`,
    );
  }
  if (systems.vitabench !== undefined) {
    lines.push(
      `- \`eval/vitabench/tasks.json\`: ${systems.vitabench.tasks} VitaBench 2.0 personalization tasks with ${systems.vitabench.subtasks} temporally ordered subtasks and rubrics.`,
    );
  }
  if (lines.length === 0) return;
  const text = await readFile(card, 'utf8');
  const marker = '## Use with ms-swift';
  const section = `### Published-system sets\n\n${lines.join('\n')}\n\n`;
  await writeFileAtomic(
    card,
    text.includes(marker) ? text.replace(marker, `${section}${marker}`) : `${text}\n${section}`,
  );
}
