import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PreflightError, TrainingJobError } from '../errors/index.js';
import type { Recipe } from '../schemas/recipe.js';
import { writeJson } from '../util/fs.js';
import {
  type BuildTrainCommandOptions,
  buildTrainCommand,
  formatCommandLine,
  launchEnv,
  type TrainCommand,
} from './command.js';
import { followRun } from './follow.js';
import { execaRunProcess, type RunProcess } from './process.js';
import { createConsoleReporter, type ProgressReporter } from './reporter.js';
import { type Checkpoint, latestCheckpoint } from './run-dir.js';

/** Options of {@link launchTraining}; all optional. */
export interface LaunchTrainingOptions extends BuildTrainCommandOptions {
  /** Resume from the latest checkpoint under the recipe's output dir (`--resume_from_checkpoint`). */
  resume?: boolean;
  /** Process seam (default execa in its own process group). */
  runProcess?: RunProcess;
  /** Where output and progress go (default: the console, a bar on a TTY). */
  reporter?: ProgressReporter;
  /** Parent environment (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Signal source whose SIGINT/SIGTERM are forwarded to the child's group (default `process`). */
  signals?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
  /** How often logging.jsonl and checkpoints are polled. @default 1000 */
  pollIntervalMs?: number;
  /** Lines of stderr kept for the error. @default 40 */
  stderrTailLines?: number;
  /** Clock for the run record's timestamps. @default () => new Date() */
  clock?: () => Date;
}

/** What a finished training run left behind. */
export interface TrainingResult {
  command: TrainCommand;
  commandLine: string;
  /** The `vN-…` directory this run wrote. */
  runDir: string | undefined;
  checkpoints: Checkpoint[];
  lastCheckpoint: Checkpoint | undefined;
  /** `<output_dir>/persona-forge-run.json`. */
  recordFile: string;
  logFile: string;
}

/** The run record persona-forge keeps beside ms-swift's run directories. */
export interface RunRecord {
  recipe: string;
  stage: Recipe['stage'];
  commandLine: string;
  nodeRank: number;
  startedAt: string;
  finishedAt?: string;
  status: 'running' | 'succeeded' | 'failed';
  exitCode?: number | null;
  runDir?: string;
  resumedFrom?: string;
  checkpoints: { step: number; path: string; isAdapter: boolean }[];
}

/** Name of the run record file inside the recipe's output dir. */
export const RUN_RECORD_FILE = 'persona-forge-run.json';

/**
 * Launches one node's `swift` process for a recipe and waits for it: streams its output to the
 * reporter and `<output_dir>/persona-forge-train-node<R>.log`, follows `logging.jsonl` of the new
 * `vN-…` run directory for progress, records `checkpoint-N` folders in `persona-forge-run.json`,
 * forwards SIGINT/SIGTERM to the child's process group. A non-zero exit throws
 * `TrainingJobError` with the command and the stderr tail.
 *
 * @example
 * const result = await launchTraining(await loadRecipe('recipes/personavlm-sft.yaml'), { resume: true });
 * console.log(result.lastCheckpoint?.path);
 */
export async function launchTraining(
  recipe: Recipe,
  options: LaunchTrainingOptions = {},
): Promise<TrainingResult> {
  const parentEnv = options.env ?? process.env;
  const probe = buildTrainCommand(recipe, options);
  let resumeFrom = options.resumeFrom;
  if (options.resume === true && resumeFrom === undefined) {
    const latest = latestCheckpoint(probe.outputDir);
    if (latest === undefined) {
      throw new PreflightError([`--resume: no checkpoint-N folder under ${probe.outputDir}/v*-*/`]);
    }
    resumeFrom = latest.path;
  }
  const command = resumeFrom === undefined ? probe : buildTrainCommand(recipe, { ...options, resumeFrom });
  const commandLine = formatCommandLine(command);
  const reporter = options.reporter ?? createConsoleReporter();
  const clock = options.clock ?? (() => new Date());
  mkdirSync(command.outputDir, { recursive: true });
  const logFile = path.join(command.outputDir, `persona-forge-train-node${command.nodeRank}.log`);
  const recordFile = path.join(command.outputDir, RUN_RECORD_FILE);
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`# ${clock().toISOString()} ${commandLine}\n`);

  const record: RunRecord = {
    recipe: recipe.name,
    stage: recipe.stage,
    commandLine,
    nodeRank: command.nodeRank,
    startedAt: clock().toISOString(),
    status: 'running',
    checkpoints: [],
    ...(resumeFrom === undefined ? {} : { resumedFrom: resumeFrom }),
  };
  let writes = writeJson(recordFile, record);
  const saveRecord = () => {
    writes = writes.then(() => writeJson(recordFile, record));
  };

  const follower = followRun(
    command.outputDir,
    {
      onRunDir: (run) => {
        record.runDir = run.path;
        reporter.info(`run directory ${run.path}`);
        saveRecord();
      },
      onProgress: (e) => reporter.progress(e),
      onCheckpoint: (c) => {
        record.checkpoints.push({ step: c.step, path: c.path, isAdapter: c.isAdapter });
        reporter.info(`checkpoint ${c.path}`);
        saveRecord();
      },
    },
    { intervalMs: options.pollIntervalMs ?? 1000 },
  );

  const tailMax = options.stderrTailLines ?? 40;
  let stderrTail: string[] = [];
  let partial = '';
  const child = (options.runProcess ?? execaRunProcess)(command.argv[0] ?? 'swift', command.argv.slice(1), {
    env: launchEnv(command, parentEnv),
    cwd: command.cwd,
    onStdout: (chunk) => {
      log.write(chunk);
      reporter.output(chunk);
    },
    onStderr: (chunk) => {
      log.write(chunk);
      reporter.output(chunk);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      stderrTail = [...stderrTail, ...lines].slice(-tailMax);
    },
  });
  reporter.info(`started swift (pid ${child.pid ?? '?'}, node ${command.nodeRank})`);
  const signals = options.signals ?? process;
  const forward = (signal: NodeJS.Signals) => {
    reporter.info(`forwarding ${signal} to the swift process group`);
    child.kill(signal);
  };
  const onInt = () => forward('SIGINT');
  const onTerm = () => forward('SIGTERM');
  signals.on('SIGINT', onInt);
  signals.on('SIGTERM', onTerm);
  let exit: { exitCode: number | undefined; signal: string | undefined };
  try {
    exit = await child.result;
  } finally {
    signals.off('SIGINT', onInt);
    signals.off('SIGTERM', onTerm);
    follower.stop();
    reporter.stop();
  }
  if (partial !== '') stderrTail = [...stderrTail, partial].slice(-tailMax);
  record.status = exit.exitCode === 0 ? 'succeeded' : 'failed';
  record.exitCode = exit.exitCode ?? null;
  record.finishedAt = clock().toISOString();
  saveRecord();
  await writes;
  await new Promise<void>((resolve) => log.end(resolve));
  if (exit.exitCode !== 0) {
    const reason = exit.signal === undefined ? '' : `(terminated by ${exit.signal})\n`;
    throw new TrainingJobError(commandLine, exit.exitCode, `${reason}${stderrTail.join('\n')}`, {
      hint: `full log: ${logFile}`,
    });
  }
  // Seen while swift was still writing them: once it has exited, read each folder again (a LoRA
  // checkpoint's adapter_config.json may have appeared after the folder did).
  const checkpoints = follower.checkpoints().map((checkpoint) => ({
    ...checkpoint,
    isAdapter: existsSync(path.join(checkpoint.path, 'adapter_config.json')),
  }));
  return {
    command,
    commandLine,
    runDir: follower.runDir()?.path,
    checkpoints,
    lastCheckpoint: checkpoints.at(-1),
    recordFile,
    logFile,
  };
}
