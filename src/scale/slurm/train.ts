import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { RecipeError } from '../../errors/index.js';
import type { Recipe } from '../../schemas/recipe.js';
import { assertChainPair, chainTraining, handoffOptions, planHandoff } from '../../train/chain.js';
import { buildTrainCommand } from '../../train/command.js';
import { launchTraining } from '../../train/launch.js';
import { loadRecipe } from '../../train/load-recipe.js';
import { latestCheckpoint } from '../../train/run-dir.js';
import type { TrainCliOptions } from '../../train/train.js';
import { writeFileAtomic, writeJson } from '../../util/fs.js';
import { type SlurmCommands, sbatch, slurmCommand } from './sched.js';
import { renderTrainScript, type SlurmResources, withDependency } from './scripts.js';

/** Options of {@link slurmTrain}. */
export interface SlurmTrainOptions extends SlurmResources, SlurmCommands {
  submit?: boolean;
  cwd?: string;
  /** Environment for `${VAR}` in recipes. @default process.env */
  env?: Record<string, string | undefined>;
  command?: string;
}

/** One written (and maybe submitted) training job. */
export interface SlurmTrainJob {
  recipe: string;
  script: string;
  text: string;
  jobId?: string;
  dependsOn?: string;
}

function outputDirOf(recipe: Recipe, cwd: string): string {
  return buildTrainCommand(recipe, { cwd }).outputDir;
}

async function writeTrainScript(
  recipePath: string,
  recipe: Recipe,
  options: SlurmTrainOptions,
  file: string,
  extra: { afterSft?: string } = {},
): Promise<SlurmTrainJob> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const outputDir = outputDirOf(recipe, cwd);
  const text = renderTrainScript({
    ...options,
    recipe: recipePath,
    nodes: recipe.distributed.nodes,
    gpusPerNode: recipe.distributed.gpusPerNode,
    outputDir,
    logDir: outputDir,
    cwd,
    ...(extra.afterSft === undefined ? {} : { afterSft: extra.afterSft }),
  });
  await mkdir(path.dirname(file), { recursive: true });
  await mkdir(outputDir, { recursive: true });
  await writeFileAtomic(file, text);
  return { recipe: path.resolve(cwd, recipePath), script: file, text };
}

/**
 * `persona-forge train <recipe> --slurm [--submit]`: writes `<output dir>/slurm/train.sbatch`
 * and, with `submit`, submits it and records the id in `<output dir>/slurm/jobs.json`.
 *
 * @example
 * const [job] = await slurmTrain('recipes/personavlm-sft.yaml', { submit: true });
 */
export async function slurmTrain(
  recipePath: string,
  options: SlurmTrainOptions = {},
): Promise<SlurmTrainJob> {
  const recipe = await loadRecipe(recipePath, options.env === undefined ? {} : { env: options.env });
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const dir = path.join(outputDirOf(recipe, cwd), 'slurm');
  const job = await writeTrainScript(recipePath, recipe, options, path.join(dir, 'train.sbatch'));
  if (options.submit === true) {
    job.jobId = await sbatch(job.script, [], options);
    await writeJson(path.join(dir, 'jobs.json'), {
      version: 1,
      jobs: [{ recipe: job.recipe, jobId: job.jobId }],
    });
  }
  return job;
}

/**
 * `persona-forge train chain <sft> <rl> --slurm [--submit]`: the SFT job, and an RL job submitted
 * with `--dependency=afterok:<sft>` whose nodes run `train chain <sft> <rl> --rl-only` (the RL
 * stage from the SFT run's newest checkpoint).
 */
export async function slurmTrainChain(
  sftPath: string,
  rlPath: string,
  options: SlurmTrainOptions = {},
): Promise<[SlurmTrainJob, SlurmTrainJob]> {
  const loadOptions = options.env === undefined ? {} : { env: options.env };
  const sft = await loadRecipe(sftPath, loadOptions);
  const rl = await loadRecipe(rlPath, loadOptions);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  assertChainPair(sft, rl, cwd);
  const sftDir = path.join(outputDirOf(sft, cwd), 'slurm');
  const rlDir = path.join(outputDirOf(rl, cwd), 'slurm');
  const sftJob = await writeTrainScript(sftPath, sft, options, path.join(sftDir, 'train.sbatch'));
  const rlJob = await writeTrainScript(rlPath, rl, options, path.join(rlDir, 'train.sbatch'), {
    afterSft: sftPath,
  });
  if (options.submit === true) {
    sftJob.jobId = await sbatch(sftJob.script, [], options);
    rlJob.text = withDependency(rlJob.text, sftJob.jobId);
    rlJob.dependsOn = sftJob.jobId;
    await writeFileAtomic(rlJob.script, rlJob.text);
    rlJob.jobId = await sbatch(rlJob.script, [], options);
    const record = {
      version: 1,
      jobs: [
        { recipe: sftJob.recipe, jobId: sftJob.jobId },
        { recipe: rlJob.recipe, jobId: rlJob.jobId, dependsOn: sftJob.jobId },
      ],
    };
    await writeJson(path.join(sftDir, 'jobs.json'), record);
    await writeJson(path.join(rlDir, 'jobs.json'), record);
  }
  return [sftJob, rlJob];
}

/**
 * `train chain <sft> <rl> --rl-only`: the RL stage of a chain whose SFT already ran (the RL job of
 * `train chain --slurm`). Starts from the SFT run's newest checkpoint, as `train chain` would;
 * with `resume`, continues the RL run from its own newest checkpoint.
 */
export async function trainRlAfterSft(
  sftPath: string,
  rlPath: string,
  options: TrainCliOptions = {},
): Promise<number> {
  const loadOptions = options.env === undefined ? {} : { env: options.env };
  const sft = await loadRecipe(sftPath, loadOptions);
  const rl = await loadRecipe(rlPath, loadOptions);
  assertChainPair(sft, rl, options.cwd);
  const sftOutput = buildTrainCommand(sft, options).outputDir;
  const checkpoint = latestCheckpoint(sftOutput);
  if (checkpoint === undefined) {
    throw new RecipeError(`--rl-only: the SFT run left no checkpoint-N folder under ${sftOutput}`, {
      hint: 'run the SFT stage first (train chain without --rl-only)',
    });
  }
  const handoff = planHandoff(sft, rl, checkpoint.path);
  if (handoff.kind === 'merged') {
    await chainTraining(sft, rl, { ...options, reuseSft: true });
    return 0;
  }
  await launchTraining(rl, { ...options, ...handoffOptions(handoff), resume: options.resume === true });
  return 0;
}

/**
 * Inside a Slurm job (`SLURM_JOB_ID` set): when Slurm sends USR1 ahead of the time limit
 * (`--signal=USR1@120`), rank 0 requeues the job; Slurm then stops every rank, and the requeued
 * job's script passes `--resume` because a checkpoint exists. Returns a function that removes the
 * handler and resolves once a requeue under way has finished: USR1 reaches every process of the
 * step, so swift (Python, whose default for USR1 is to exit) usually ends first, and a launcher
 * that exited then would end the step — and kill `scontrol requeue` with it — before the job was
 * requeued; after a requeue it waits for Slurm to stop the step rather than exit with swift's
 * failure. Outside Slurm it does nothing.
 */
export function requeueOnTimeLimit(
  options: SlurmCommands & { log?: (line: string) => void; lingerMs?: number } = {},
): () => Promise<void> {
  const env = options.env ?? process.env;
  const jobId = env.SLURM_JOB_ID;
  if (jobId === undefined) return async () => {};
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let pending: Promise<boolean> | undefined;
  const handler = () => {
    const rank = env.SLURM_NODEID ?? env.SLURM_PROCID ?? '0';
    log(`[slurm] USR1: time limit near (job ${jobId}, node ${rank})`);
    if (rank !== '0' || pending !== undefined) return;
    pending = slurmCommand('scontrol', ['requeue', jobId], options).then(
      () => {
        log(`[slurm] job ${jobId} requeued; it resumes from the newest checkpoint`);
        return true;
      },
      (error: unknown) => {
        log(`[slurm] requeue failed: ${(error as Error).message}`);
        return false;
      },
    );
  };
  process.on('SIGUSR1', handler);
  return async () => {
    process.off('SIGUSR1', handler);
    // Once requeued, Slurm ends this step itself: exiting first (with swift's failure) would race
    // the requeue with a failed batch script. Wait to be stopped, up to `lingerMs`.
    if ((await pending) === true)
      await new Promise((resolve) => setTimeout(resolve, options.lingerMs ?? 60_000));
  };
}
