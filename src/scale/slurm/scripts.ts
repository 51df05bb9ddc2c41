import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../errors/index.js';
import { shellQuote } from '../../train/shell.js';

/** The persona-forge entry point of this checkout (every node sees the same paths). */
export const PF_BIN = fileURLToPath(new URL('../../../bin/persona-forge.js', import.meta.url));

/** Scheduler settings shared by every job persona-forge writes. */
export interface SlurmResources {
  partition?: string;
  /** `HH:MM:SS` (or any Slurm time string). */
  time?: string;
  cpusPerTask?: number;
  /** Slurm memory string: `16G`, `4000M`. */
  mem?: string;
  account?: string;
}

/** The LLM and run flags each shard forwards to `persona-forge run`. */
export interface ForwardedRunFlags {
  seed?: number;
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  budgetUsd?: number;
}

/** Inputs of {@link renderRunScripts}. */
export interface RunScriptsOptions extends SlurmResources, ForwardedRunFlags {
  pipeline: string;
  /** The run directory; shards go to `<out>/shards/<i>`, the merge writes `<out>` itself. */
  out: string;
  shards: number;
  /** Working directory of every job. @default process.cwd() */
  cwd?: string;
  /** How to start persona-forge on a node. @default `node <this checkout>/bin/persona-forge.js` */
  command?: string;
}

/** What {@link renderRunScripts} returns: the two scripts and the paths they use. */
export interface RunScripts {
  runScript: string;
  mergeScript: string;
  shardDirs: string[];
  logDir: string;
}

const TIME = /^(\d+-)?\d{1,3}(:\d{2}){0,2}$/;
const MEM = /^\d+[KMGT]?$/;

function checkResources(r: SlurmResources): void {
  if (r.time !== undefined && !TIME.test(r.time)) {
    throw new InputError('--time', `"${r.time}" is not a Slurm time limit`, {
      hint: 'use HH:MM:SS, MM or D-HH:MM:SS',
    });
  }
  if (r.mem !== undefined && !MEM.test(r.mem)) {
    throw new InputError('--mem', `"${r.mem}" is not a Slurm memory size`, { hint: 'e.g. 16G or 4000M' });
  }
  for (const [flag, value] of [
    ['--partition', r.partition],
    ['--account', r.account],
  ] as const) {
    if (value !== undefined && !/^[\w.,-]+$/.test(value)) {
      throw new InputError(flag, `"${value}" has characters Slurm does not accept in a name`);
    }
  }
}

function resourceLines(r: SlurmResources): string[] {
  const lines: string[] = [];
  if (r.partition !== undefined) lines.push(`#SBATCH --partition=${r.partition}`);
  if (r.account !== undefined) lines.push(`#SBATCH --account=${r.account}`);
  if (r.time !== undefined) lines.push(`#SBATCH --time=${r.time}`);
  if (r.cpusPerTask !== undefined) lines.push(`#SBATCH --cpus-per-task=${r.cpusPerTask}`);
  if (r.mem !== undefined) lines.push(`#SBATCH --mem=${r.mem}`);
  return lines;
}

function jobName(kind: string, file: string): string {
  const base = path
    .basename(file)
    .replace(/\.ya?ml$/, '')
    .replace(/[^\w.-]/g, '-');
  return `pf-${kind}-${base}`;
}

/** `node <bin>` quoted for sh. */
export function defaultCommand(): string {
  return `node ${shellQuote(PF_BIN)}`;
}

/** The `persona-forge run` flags a shard forwards (the same for Slurm tasks and Kubernetes pods). */
export function forwardedArgs(flags: ForwardedRunFlags): string[] {
  const out: string[] = [];
  if (flags.seed !== undefined) out.push('--seed', String(flags.seed));
  if (flags.llmBaseUrl !== undefined) out.push('--llm-base-url', flags.llmBaseUrl);
  if (flags.llmModel !== undefined) out.push('--llm-model', flags.llmModel);
  if (flags.llmApiKeyEnv !== undefined) out.push('--llm-api-key-env', flags.llmApiKeyEnv);
  if (flags.budgetUsd !== undefined) out.push('--budget-usd', String(flags.budgetUsd));
  return out;
}

function forwardedFlags(flags: ForwardedRunFlags): string[] {
  return forwardedArgs(flags).map(shellQuote);
}

/**
 * The synthesis job array and the merge job. `run.sbatch` is an array `0-(N-1)`; task i runs
 * `persona-forge run <pipeline> --out <out>/shards/<i> --shard auto --shards N`, which resumes per
 * user, so a re-submitted task continues where it stopped. `merge.sbatch` merges the shards into
 * `<out>` (so `<out>` ends as the unsharded run would); it is submitted with
 * `--dependency=afterok:<array job id>`, written into the file when persona-forge submits it.
 *
 * @example
 * const s = renderRunScripts({ pipeline: 'pipelines/quickstart.yaml', out: 'out/q', shards: 3 });
 */
export function renderRunScripts(options: RunScriptsOptions): RunScripts {
  if (!Number.isInteger(options.shards) || options.shards < 1 || options.shards > 100_000) {
    throw new InputError('--shards', `expected a whole number from 1 to 100000, got ${options.shards}`);
  }
  checkResources(options);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const out = path.resolve(cwd, options.out);
  const pipeline = path.resolve(cwd, options.pipeline);
  refuseLineBreaks('--out', out);
  refuseLineBreaks('pipeline', pipeline);
  refuseLineBreaks('working directory', cwd);
  const logDir = path.join(out, 'slurm', 'logs');
  const command = options.command ?? defaultCommand();
  const shardDirs = [...Array(options.shards).keys()].map((i) => path.join(out, 'shards', String(i)));
  const header = (kind: string, extra: string[]) =>
    [
      '#!/bin/bash',
      `#SBATCH --job-name=${jobName(kind, options.pipeline)}`,
      `#SBATCH --chdir=${sbatchValue(cwd)}`,
      ...extra,
      ...resourceLines(options),
      '# Written by `persona-forge slurm run`; submit with `persona-forge slurm run … --submit`.',
      'set -euo pipefail',
    ].join('\n');
  const runScript = `${header('run', [
    `#SBATCH --array=0-${options.shards - 1}`,
    '#SBATCH --ntasks=1',
    `#SBATCH --output=${sbatchFilename(logDir, 'run-%A_%a.out')}`,
  ])}
exec ${command} run ${shellQuote(pipeline)} --out ${shellQuote(path.join(out, 'shards'))}/"$SLURM_ARRAY_TASK_ID" \\
  --shard auto --shards ${options.shards} ${forwardedFlags(options).join(' ')}
`.replace(/ \n/g, '\n');
  const mergeScript = `${header('merge', [
    '#SBATCH --ntasks=1',
    `#SBATCH --output=${sbatchFilename(logDir, 'merge-%j.out')}`,
    '#SBATCH --kill-on-invalid-dep=yes',
  ])}
exec ${command} merge ${shardDirs.map(shellQuote).join(' ')} --out ${shellQuote(out)}
`;
  return { runScript, mergeScript, shardDirs, logDir };
}

/**
 * The shell line that submits the two scripts by hand, every path quoted for sh (pasting it runs
 * nothing a path holds).
 *
 * @example submitHint('/out/slurm/run.sbatch', '/out/slurm/merge.sbatch')
 */
export function submitHint(runScript: string, mergeScript: string): string {
  return `id=$(sbatch --parsable ${shellQuote(runScript)}) && sbatch --dependency=afterok:"$id" ${shellQuote(mergeScript)}`;
}

/**
 * A value of an `#SBATCH` line: double-quoted, with `\` and `"` escaped by a backslash, as
 * sbatch's own line parser reads it (src/sbatch/opt.c `_get_argument`: quotes group, a backslash
 * escapes the next character, an unquoted `#` starts a comment). Bash never reads these lines
 * (they are comments), so only a newline could break out of them: refused.
 */
export function sbatchValue(value: string): string {
  refuseLineBreaks('a path in an #SBATCH line', value);
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * A Slurm filename pattern (`--output`) in a literal folder: `%` doubled, then as
 * {@link sbatchValue}. A backslash anywhere in the name turns every pattern off (Slurm's
 * fname.c `_is_path_escaped`: every task would write one file), so it is refused.
 */
function sbatchFilename(dir: string, pattern: string): string {
  if (dir.includes('\\')) {
    throw new InputError(
      'log folder',
      `${JSON.stringify(dir)} holds a backslash, which turns off Slurm's %j/%A/%a patterns in --output`,
      { hint: 'use a folder without backslashes for --out' },
    );
  }
  return sbatchValue(path.join(dir.replace(/%/g, '%%'), pattern));
}

/** Paths that go into job scripts cannot hold a line break (or NUL): refused, naming the value. */
export function refuseLineBreaks(what: string, value: string): void {
  if (/[\n\r\0]/.test(value)) {
    throw new InputError(
      what,
      `${JSON.stringify(value)} holds a line break; job scripts cannot carry it safely`,
      { hint: 'use a path without newlines' },
    );
  }
}

/** Puts (or replaces) `#SBATCH --dependency=afterok:<id>` right after the shebang. */
export function withDependency(script: string, jobId: string): string {
  if (!/^\d+(_\d+)?$/.test(jobId)) throw new InputError('job id', `"${jobId}" is not a Slurm job id`);
  const lines = script.split('\n').filter((line) => !line.startsWith('#SBATCH --dependency='));
  lines.splice(1, 0, `#SBATCH --dependency=afterok:${jobId}`);
  return lines.join('\n');
}

/** Inputs of {@link renderTrainScript}. */
export interface TrainScriptOptions extends SlurmResources {
  recipe: string;
  /** For `train chain`: the SFT recipe this RL job starts from (its job must finish first). */
  afterSft?: string;
  nodes: number;
  gpusPerNode: number;
  /** Where ms-swift writes; a checkpoint under it makes a requeued job resume. */
  outputDir: string;
  /** Folder for the job's log. */
  logDir: string;
  cwd?: string;
  command?: string;
}

/**
 * One sbatch for a (multi-node) training stage: `--nodes`, `--gpus-per-node`,
 * `--ntasks-per-node=1`, `--requeue`, `--signal=USR1@120`; one `srun` starts
 * `persona-forge train <recipe> --node-rank $SLURM_NODEID --master-addr <first host>` on every
 * node. When the time limit nears, Slurm sends USR1 to every rank; rank 0 requeues the job
 * (`scontrol requeue`), every rank stops swift, and the next start resumes from the newest
 * checkpoint under the recipe's output folder.
 *
 * @example
 * renderTrainScript({ recipe: 'recipes/personavlm-sft.yaml', nodes: 2, gpusPerNode: 8, outputDir: 'output/personavlm-sft', logDir: 'output/personavlm-sft' });
 */
export function renderTrainScript(options: TrainScriptOptions): string {
  checkResources(options);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const recipe = path.resolve(cwd, options.recipe);
  const outputDir = path.resolve(cwd, options.outputDir);
  refuseLineBreaks('working directory', cwd);
  refuseLineBreaks('recipe', recipe);
  refuseLineBreaks('output_dir', outputDir);
  refuseLineBreaks('log folder', path.resolve(cwd, options.logDir));
  if (options.afterSft !== undefined) refuseLineBreaks('recipe', path.resolve(cwd, options.afterSft));
  const command = options.command ?? defaultCommand();
  const name = jobName('train', options.recipe);
  const trainArgs =
    options.afterSft === undefined
      ? `train ${shellQuote(recipe)}`
      : `train chain ${shellQuote(path.resolve(cwd, options.afterSft))} ${shellQuote(recipe)} --rl-only`;
  return `${[
    '#!/bin/bash',
    `#SBATCH --job-name=${name}`,
    `#SBATCH --chdir=${sbatchValue(cwd)}`,
    `#SBATCH --nodes=${options.nodes}`,
    '#SBATCH --ntasks-per-node=1',
    `#SBATCH --gpus-per-node=${options.gpusPerNode}`,
    '#SBATCH --requeue',
    '#SBATCH --signal=USR1@120',
    `#SBATCH --output=${sbatchFilename(path.resolve(cwd, options.logDir), 'slurm-%j.out')}`,
    ...resourceLines(options),
    '# Written by `persona-forge train … --slurm`.',
    'set -euo pipefail',
  ].join('\n')}
MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
RESUME=""
# A requeued (or resubmitted) job continues from the newest checkpoint.
if compgen -G ${shellQuote(outputDir)}'/v*-*/checkpoint-*' > /dev/null; then RESUME="--resume"; fi
export MASTER_ADDR RESUME
srun --ntasks-per-node=1 --kill-on-bad-exit=1 bash -c \\
  'exec ${command.replace(/'/g, `'"'"'`)} ${trainArgs.replace(/'/g, `'"'"'`)} --node-rank "$SLURM_NODEID" --master-addr "$MASTER_ADDR" $RESUME'
`;
}
