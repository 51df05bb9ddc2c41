import path from 'node:path';
import { PreflightError } from '../errors/index.js';
import { chainTraining, handoffOptions, planChain } from './chain.js';
import { buildTrainCommand } from './command.js';
import { formatDryRun } from './dry-run.js';
import { evalHint } from './eval-hint.js';
import { type LaunchTrainingOptions, launchTraining } from './launch.js';
import { loadRecipe } from './load-recipe.js';
import { launchOverSsh, planNodes, readHostfile } from './multinode.js';
import { assertPreflight, formatPreflight, runPreflight } from './preflight.js';
import { latestCheckpoint } from './run-dir.js';

/** Options of the `persona-forge train` entry points (CLI flags plus injected seams). */
export interface TrainCliOptions extends Omit<LaunchTrainingOptions, 'resumeFrom'> {
  /** Print per-node environment + command and the preflight; start nothing. */
  dryRun?: boolean;
  /** Hostfile path: prints every node's command; with `launch`, starts them over ssh. */
  hosts?: string;
  launch?: boolean;
  /** Where dry-run text goes. @default process.stdout.write */
  print?: (text: string) => void;
  fetch?: typeof fetch;
  /** A partial recipe deep-merged over each loaded file (e.g. `{ preflight: { minFreeDiskGb: 0 } }`). */
  overrides?: unknown;
}

function loadOptions(options: TrainCliOptions): {
  env?: Record<string, string | undefined>;
  overrides?: unknown;
} {
  return {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
  };
}

/**
 * `persona-forge train <recipe.yaml> [--dry-run] [--node-rank N] [--master-addr HOST] [--resume]
 * [--hosts FILE] [--launch]`. Returns the process exit code: dry runs return 0 when preflight
 * passes, 1 otherwise; a launch returns 0 or throws (`PreflightError`, `TrainingJobError`).
 *
 * @example
 * const exitCode = await trainCommand('recipes/personavlm-sft.yaml', { dryRun: true });
 */
export async function trainCommand(recipePath: string, options: TrainCliOptions = {}): Promise<number> {
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  const recipe = await loadRecipe(recipePath, loadOptions(options));
  const hosts = options.hosts === undefined ? undefined : readHostfile(options.hosts);
  let resumeFrom: string | undefined;
  if (options.resume === true) {
    const outputDir = buildTrainCommand(recipe, options).outputDir;
    resumeFrom = latestCheckpoint(outputDir)?.path;
    if (resumeFrom === undefined)
      throw new PreflightError([`--resume: no checkpoint-N folder under ${outputDir}/v*-*/`]);
  }
  const { hosts: _hostfile, overrides: _overrides, ...rest } = options;
  const base = { ...rest, ...(resumeFrom === undefined ? {} : { resumeFrom }) };
  const plans = planNodes(recipe, { ...base, ...(hosts === undefined ? {} : { hosts }) });
  if (options.dryRun === true || (hosts !== undefined && options.launch !== true)) {
    const report = await runPreflight(recipe, base);
    print(formatDryRun(recipe, plans, report));
    if (recipe.eval !== undefined) {
      const placeholder = path.join(
        buildTrainCommand(recipe, options).outputDir,
        'v<N>-<timestamp>',
        'checkpoint-<last>',
      );
      print(`\n${evalHint(recipe, placeholder, options.cwd).join('\n')}\n`);
    }
    return report.ok ? 0 : 1;
  }
  if (hosts !== undefined) {
    await launchOverSsh(plans, options);
    return 0;
  }
  assertPreflight(await runPreflight(recipe, base));
  const result = await launchTraining(recipe, { ...base, resume: false });
  const checkpoint = result.lastCheckpoint?.path;
  if (checkpoint !== undefined && recipe.eval !== undefined)
    print(`\n${evalHint(recipe, checkpoint).join('\n')}\n`);
  return 0;
}

/**
 * `persona-forge train chain <sft.yaml> <rl.yaml> [--dry-run]`: SFT, then RL from the SFT run's
 * last checkpoint. Dry run prints both commands, the handoff and both preflights.
 *
 * @example
 * const exitCode = await trainChainCommand('recipes/personavlm-sft.yaml', 'recipes/personavlm-grpo.yaml', { dryRun: true });
 */
export async function trainChainCommand(
  sftPath: string,
  rlPath: string,
  options: TrainCliOptions = {},
): Promise<number> {
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  const sft = await loadRecipe(sftPath, loadOptions(options));
  const rl = await loadRecipe(rlPath, loadOptions(options));
  const chain = planChain(sft, rl, options);
  const sftReport = await runPreflight(sft, options);
  // The RL datasets come from the same export and are checked now; its model is the SFT output.
  const rlReport = await runPreflight(rl, { ...options, ...handoffOptions(chain.handoff) });
  if (options.dryRun === true) {
    print(
      `${chain.lines.join('\n')}\n\n# preflight ${sft.name}: ${sftReport.ok ? 'passed' : 'FAILED'}\n${formatPreflight(sftReport)}\n\n# preflight ${rl.name}: ${rlReport.ok ? 'passed' : 'FAILED'}\n${formatPreflight(rlReport)}\n`,
    );
    return sftReport.ok && rlReport.ok ? 0 : 1;
  }
  assertPreflight(sftReport);
  assertPreflight(rlReport);
  const result = await chainTraining(sft, rl, options);
  const checkpoint = result.rl.lastCheckpoint?.path;
  if (checkpoint !== undefined && rl.eval !== undefined) print(`\n${evalHint(rl, checkpoint).join('\n')}\n`);
  return 0;
}
