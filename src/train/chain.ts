import { existsSync } from 'node:fs';
import path from 'node:path';
import { RecipeError, TrainingJobError } from '../errors/index.js';
import type { Recipe } from '../schemas/recipe.js';
import { assertKnownArgs } from './arg-names.js';
import { type BuildTrainCommandOptions, buildTrainCommand, formatCommandLine, launchEnv } from './command.js';
import { type LaunchTrainingOptions, launchTraining, type TrainingResult } from './launch.js';
import { execaRunProcess } from './process.js';
import { latestCheckpoint } from './run-dir.js';

/** How the RL run starts from the SFT result. */
export type Handoff =
  | { kind: 'full'; model: string }
  | { kind: 'lora'; model: string; adapters: string; refAdapters: string }
  | { kind: 'merged'; model: string; adapters: string; exportArgv: string[] };

/**
 * Decides the SFT → RL handoff (ms-swift.md §5): a full fine-tune's checkpoint becomes the RL
 * `--model`; LoRA adapters become `--adapters` + `--ref_adapters` (so the KL reference is the SFT
 * policy) on the SFT base model; with `tuner.mergeBeforeRl` in either recipe the adapters are
 * first merged by `swift export --adapters <ckpt> --merge_lora true` into `<ckpt>-merged`.
 *
 * @example
 * planHandoff(sft, rl, '/out/v1-20260101-000000/checkpoint-1200'); // { kind: 'full', model: '…/checkpoint-1200' }
 */
export function planHandoff(sft: Recipe, rl: Recipe, checkpoint: string): Handoff {
  if (sft.tuner.type === 'full') return { kind: 'full', model: checkpoint };
  if (sft.tuner.mergeBeforeRl || rl.tuner.mergeBeforeRl) {
    const flags = ['adapters', 'merge_lora'];
    assertKnownArgs(flags, 'export', sft.swiftVersion);
    return {
      kind: 'merged',
      model: `${checkpoint}-merged`,
      adapters: checkpoint,
      exportArgv: ['swift', 'export', '--adapters', checkpoint, '--merge_lora', 'true'],
    };
  }
  if (rl.tuner.type !== 'lora') {
    throw new RecipeError(
      `the SFT recipe ${sft.name} trains LoRA adapters but the RL recipe ${rl.name} is a full fine-tune`,
      {
        hint: 'set tuner.type: lora in the RL recipe, or tuner.mergeBeforeRl: true to merge the adapters first',
      },
    );
  }
  return { kind: 'lora', model: sft.model.id, adapters: checkpoint, refAdapters: checkpoint };
}

/**
 * A chain is an SFT recipe then an RL recipe that trains on the same export: refuses the
 * reversed order (`train chain grpo.yaml sft.yaml`) and two recipes reading different exports
 * (the RL prompts would not be the data the SFT policy learned from).
 *
 * @example assertChainPair(sft, rl); // throws RecipeError for (rl, sft)
 */
export function assertChainPair(sft: Recipe, rl: Recipe, cwd: string = process.cwd()): void {
  if (sft.stage !== 'sft' || rl.stage !== 'grpo') {
    throw new RecipeError(
      `train chain takes the SFT recipe first and the RL recipe second; got ${sft.name} (stage ${sft.stage}) then ${rl.name} (stage ${rl.stage})`,
      { hint: 'persona-forge train chain <sft.yaml> <rl.yaml>' },
    );
  }
  const exportOf = (recipe: Recipe) =>
    recipe.data.exportDir === undefined ? undefined : path.resolve(cwd, recipe.data.exportDir);
  const sftExport = exportOf(sft);
  const rlExport = exportOf(rl);
  if (sftExport !== rlExport) {
    const describe = (value: string | undefined) => value ?? '(no data.exportDir: explicit data.train files)';
    throw new RecipeError(
      `the SFT recipe ${sft.name} reads the export ${describe(sftExport)} but the RL recipe ${rl.name} reads ${describe(rlExport)}`,
      {
        hint: 'give both recipes the same data.exportDir (the shipped recipes read ${PF_EXPORT_DIR:-out/<pipeline>/export}, what `persona-forge run pipelines/<pipeline>.yaml --out out/<pipeline>` writes)',
      },
    );
  }
}

/** The RL command options a handoff implies. */
export function handoffOptions(handoff: Handoff): BuildTrainCommandOptions {
  return handoff.kind === 'lora'
    ? { model: handoff.model, adapters: handoff.adapters, refAdapters: handoff.refAdapters }
    : { model: handoff.model };
}

/** Options of {@link chainTraining}. */
export interface ChainTrainingOptions extends LaunchTrainingOptions {
  /** Reuse the SFT output's latest checkpoint instead of training when one exists. @default false */
  reuseSft?: boolean;
}

/** What a chain produced. */
export interface ChainResult {
  sft: TrainingResult | undefined;
  handoff: Handoff;
  rl: TrainingResult;
}

/**
 * Runs SFT, then RL starting from the SFT run's last checkpoint (see {@link planHandoff}).
 *
 * @example
 * await chainTraining(await loadRecipe('recipes/personavlm-sft.yaml'), await loadRecipe('recipes/personavlm-grpo.yaml'));
 */
export async function chainTraining(
  sft: Recipe,
  rl: Recipe,
  options: ChainTrainingOptions = {},
): Promise<ChainResult> {
  assertChainPair(sft, rl, options.cwd);
  const sftOutput = buildTrainCommand(sft, options).outputDir;
  const existing = options.reuseSft === true ? latestCheckpoint(sftOutput) : undefined;
  const sftResult = existing === undefined ? await launchTraining(sft, options) : undefined;
  const checkpoint = existing?.path ?? sftResult?.lastCheckpoint?.path ?? latestCheckpoint(sftOutput)?.path;
  if (checkpoint === undefined) {
    throw new RecipeError(`the SFT run left no checkpoint-N folder under ${sftOutput}`, {
      hint: 'set hyperparameters.saveSteps so ms-swift saves a checkpoint',
    });
  }
  const handoff = planHandoff(sft, rl, checkpoint);
  if (handoff.kind === 'merged' && !existsSync(handoff.model)) {
    const run = options.runProcess ?? execaRunProcess;
    const line = handoff.exportArgv.join(' ');
    options.reporter?.info(`merging LoRA: ${line}`);
    let stderr = '';
    const child = run(handoff.exportArgv[0] ?? 'swift', handoff.exportArgv.slice(1), {
      env: launchEnv({ env: {}, envRefs: {} }, options.env ?? process.env),
      cwd: path.dirname(checkpoint),
      onStdout: (c) => options.reporter?.output(c),
      onStderr: (c) => {
        stderr = (stderr + c).slice(-8000);
        options.reporter?.output(c);
      },
    });
    const exit = await child.result;
    if (exit.exitCode !== 0)
      throw new TrainingJobError(line, exit.exitCode, stderr.split('\n').slice(-40).join('\n'));
  }
  const rlResult = await launchTraining(rl, { ...options, ...handoffOptions(handoff), resume: false });
  return { sft: sftResult, handoff, rl: rlResult };
}

/**
 * The commands a chain would run, for `train chain --dry-run`. The SFT checkpoint is the latest
 * existing one, else a placeholder path `<sft output>/v<N>-<timestamp>/checkpoint-<last>`.
 *
 * @example
 * const text = planChain(sft, rl).lines.join('\n');
 */
export function planChain(
  sft: Recipe,
  rl: Recipe,
  options: BuildTrainCommandOptions = {},
): { handoff: Handoff; lines: string[] } {
  assertChainPair(sft, rl, options.cwd);
  const sftCommand = buildTrainCommand(sft, options);
  const existing = latestCheckpoint(sftCommand.outputDir);
  const checkpoint =
    existing?.path ?? path.join(sftCommand.outputDir, 'v<N>-<timestamp>', 'checkpoint-<last>');
  const handoff = planHandoff(sft, rl, checkpoint);
  const rlCommand = buildTrainCommand(rl, { ...options, ...handoffOptions(handoff) });
  const lines = [
    `# 1. SFT (${sft.name})`,
    formatCommandLine(sftCommand),
    '',
    `# handoff: ${handoff.kind}${existing === undefined ? ' (checkpoint path is a placeholder until the SFT run exists)' : ''}`,
    ...(handoff.kind === 'merged' ? [handoff.exportArgv.join(' ')] : []),
    '',
    `# 2. RL (${rl.name})`,
    formatCommandLine(rlCommand),
  ];
  return { handoff, lines };
}
