import type { Recipe } from '../schemas/recipe.js';
import { formatCommandLine } from './command.js';
import type { NodePlan } from './multinode.js';
import { formatPreflight, type PreflightReport } from './preflight.js';
import { shellLine, shellQuote } from './shell.js';
import { summarizeTraining } from './training-summary.js';

/**
 * The `--dry-run` text: a header, then per node the exact environment (`export K=V` lines, the
 * token as a reference to its source variable) and the one-line command beginning with `swift `,
 * the ssh line when a host is known, the `swift rollout` command in vLLM server mode, and finally
 * the preflight results.
 *
 * @example
 * console.log(formatDryRun(recipe, planNodes(recipe), await runPreflight(recipe)));
 */
export function formatDryRun(recipe: Recipe, plans: NodePlan[], report: PreflightReport | undefined): string {
  const d = recipe.distributed;
  const first = plans[0]?.command;
  const sub = first?.subcommand === 'rlhf' ? 'swift rlhf --rlhf_type grpo' : 'swift sft';
  const lines = [
    `# persona-forge train ${recipe.name}: ${sub}, ms-swift ${recipe.swiftVersion}.x, ${d.nodes} node(s) × ${d.gpusPerNode} GPUs`,
  ];
  const summary = summarizeTraining(recipe);
  lines.push(`# template: ${summary.template}`, `# trains: ${summary.trains}`);
  if (summary.overlong !== undefined) lines.push(`# overlong: ${summary.overlong}`);
  lines.push(
    `# rows over max_length ${recipe.hyperparameters.maxLength} (truncation_strategy ${summary.truncation.strategy}): ${summary.truncation.effect}`,
  );
  if (first !== undefined) {
    const b = first.batch;
    lines.push(
      `# batch: ${b.perDeviceBatchSize} per device × ${b.worldSize} GPUs × ${b.gradientAccumulationSteps} accumulation = ${b.globalBatchSize}${b.generationBatchSize === undefined ? '' : ` (generation batch ${b.generationBatchSize})`}`,
    );
    if (first.rollout !== undefined) {
      lines.push(
        '',
        '## vLLM rollout server (start first, on the rollout host)',
        shellLine(first.rollout.env, first.rollout.argv, first.rollout.envRefs),
      );
    }
  }
  for (const plan of plans) {
    lines.push('', `## node ${plan.rank}${plan.host === undefined ? '' : ` (${plan.host})`}`);
    lines.push(`cd ${shellQuote(plan.command.cwd)}`);
    for (const [k, v] of Object.entries(plan.command.env)) lines.push(`export ${k}=${shellQuote(v)}`);
    for (const [k, source] of Object.entries(plan.command.envRefs)) lines.push(`export ${k}="$${source}"`);
    lines.push(plan.command.argv.map(shellQuote).join(' '));
    if (plan.sshArgv !== undefined) lines.push(`# over ssh: ${plan.sshArgv.map(shellQuote).join(' ')}`);
  }
  if (plans.length > 0 && plans[0] !== undefined) {
    lines.push('', `# node ${plans[0].rank} as one line:`, formatCommandLine(plans[0].command));
  }
  if (report !== undefined) {
    lines.push('', `# preflight (this node): ${report.ok ? 'passed' : 'FAILED'}`, formatPreflight(report));
  }
  return `${lines.join('\n')}\n`;
}
