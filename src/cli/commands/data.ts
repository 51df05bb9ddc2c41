import { cp, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../../errors/index.js';
import type { RunSummary } from '../../pipeline/types.js';
import { resolveAutoShard } from '../../scale/shard.js';
import { parseBaseUrl, parseNumber, parseShard } from '../parse.js';
import { createReporter, type OutputMode } from '../reporters.js';

// Library modules load on demand so `--help` and small commands start fast.
const pipeline = () => import('../../pipeline/run-file.js');

interface RunFlags {
  out: string;
  seed?: number;
  shard?: { index: number; count: number } | 'auto';
  shards?: number;
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  budgetUsd?: number;
  workers?: number;
  force?: boolean;
  quiet?: boolean;
  json?: boolean;
  strict?: boolean;
  priceInputPerM?: number;
  priceOutputPerM?: number;
}

function outputMode(flags: { quiet?: boolean; json?: boolean }): OutputMode {
  return flags.json === true ? 'json' : flags.quiet === true ? 'quiet' : 'auto';
}

function llmOverride(flags: RunFlags): { baseUrl: string; model: string; apiKeyEnv?: string } | undefined {
  if (flags.llmBaseUrl === undefined && flags.llmModel === undefined) return undefined;
  if (flags.llmBaseUrl === undefined || flags.llmModel === undefined) {
    throw new Error('--llm-base-url and --llm-model go together (the endpoint and the model it serves)');
  }
  return {
    baseUrl: flags.llmBaseUrl,
    model: flags.llmModel,
    ...(flags.llmApiKeyEnv === undefined ? {} : { apiKeyEnv: flags.llmApiKeyEnv }),
  };
}

function runOptions(flags: RunFlags) {
  const llm = llmOverride(flags);
  return {
    outDir: flags.out,
    reporter: createReporter(outputMode(flags)),
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.shard === undefined
      ? {}
      : { shard: flags.shard === 'auto' ? resolveAutoShard(process.env, flags.shards) : flags.shard }),
    ...(llm === undefined ? {} : { llm }),
    ...(flags.budgetUsd === undefined ? {} : { budgetUsd: flags.budgetUsd }),
    ...(flags.workers === undefined ? {} : { workers: flags.workers }),
    // Every endpoint is probed before the first model call: a wrong URL, model or key stops here.
    probe: true,
    ...(flags.priceInputPerM === undefined && flags.priceOutputPerM === undefined
      ? {}
      : {
          prices: {
            ...(flags.priceInputPerM === undefined ? {} : { inputPerM: flags.priceInputPerM }),
            ...(flags.priceOutputPerM === undefined ? {} : { outputPerM: flags.priceOutputPerM }),
          },
        }),
    ...(flags.force === true ? { adopt: true } : {}),
  };
}

/**
 * After a run: the fidelity figures off target, printed at the end (not only in report.html);
 * with `--strict` or `validate.strict: true` they fail the command (exit 1).
 */
async function finishWithAlarms(runDir: string, flags: RunFlags): Promise<void> {
  const { readFidelityAlarms, formatAlarm, assertNoAlarms } = await import('../../validate/alarms.js');
  const alarms = await readFidelityAlarms(runDir);
  if (flags.json === true) {
    for (const alarm of alarms) process.stdout.write(`${JSON.stringify({ type: 'alarm', ...alarm })}\n`);
  } else if (alarms.length > 0) {
    process.stderr.write(
      `fidelity alarms: ${alarms.length} figure${alarms.length === 1 ? '' : 's'} off target (validation.json; red at the top of report.html):\n${alarms.map((a) => `  ${formatAlarm(a)}`).join('\n')}\n`,
    );
  }
  const strict =
    flags.strict === true ||
    (await (await pipeline()).readRunConfig(runDir).catch(() => null))?.validate.strict === true;
  if (strict) assertNoAlarms(alarms, runDir);
}

/**
 * Runs `work` with Ctrl-C and SIGTERM turned into a clean stop: the stages finish the records in
 * flight and journal them, then the command says what was kept and how to resume, and exits 130
 * (SIGINT) or 143 (SIGTERM). A second signal stops at once.
 */
async function withInterrupts<T>(
  runDir: string,
  resume: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received !== undefined) {
      // A second signal stops at once: this listener goes and the signal is raised again, so the
      // run lock's own listener releases the lock and the process ends by the signal.
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.kill(process.pid, signal);
      return;
    }
    received = signal;
    process.stderr.write(`\n${signal}: stopping after the records in flight (again to stop at once)…\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } catch (error) {
    if (received === undefined) throw error;
    const manifest = JSON.parse(await readFile(join(runDir, 'manifest.json'), 'utf8').catch(() => '{}')) as {
      stages?: Array<{ name: string; status: string; out: number; units?: { out: string } }>;
    };
    const stages = manifest.stages ?? [];
    const kept = stages.filter((stage) => stage.status === 'done' || stage.status === 'skipped');
    const stopped = stages.find((stage) => stage.status === 'stopped' || stage.status === 'failed');
    process.stderr.write(
      `interrupted (${received}): kept ${kept.length === 0 ? 'no finished stage' : kept.map((stage) => `${stage.name} (${stage.out} ${stage.units?.out ?? 'records'})`).join(', ')}${stopped === undefined ? '' : `; ${stopped.name} keeps the records it finished in its journal`}.\nresume with the same command: ${resume}\n`,
    );
    process.exitCode = received === 'SIGINT' ? 130 : 143;
    return undefined as T;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `validate`, `export`, `report` … rerun stages of a finished run: flags that cannot apply are refused. */
function refuseInapplicable(command: string, flags: RunFlags): void {
  if (flags.seed !== undefined) {
    throw new InputError(
      '--seed',
      `does not apply to \`${command}\`: it reruns a stage of an existing run with the seed recorded in its manifest; give --seed to \`run\` (a new --out) instead`,
    );
  }
  if (command === 'report' && (flags.llmBaseUrl !== undefined || flags.llmModel !== undefined)) {
    throw new InputError('--llm-base-url', 'does not apply to `report`: it calls no model');
  }
}

function printWhere(summary: RunSummary, flags: { quiet?: boolean; json?: boolean }): void {
  if (flags.json === true || flags.quiet === true) return;
  console.log(`run directory: ${summary.runDir}`);
  console.log(`  manifest.json    config, counts, usage, sha256 of every file`);
  console.log(`  quarantine.jsonl records that failed, with reasons`);
  for (const stage of summary.stages) {
    if (stage.status === 'done' || stage.status === 'skipped') {
      console.log(
        `  ${stage.name.padEnd(16)} ${stage.out} out, ${stage.quarantined} quarantined${stage.offline ? ' (offline)' : ''}`,
      );
    }
  }
}

function withRunFlags(command: Command): Command {
  return command
    .option('--seed <n>', 'override the pipeline seed', (v) => Math.trunc(parseNumber(v)))
    .option('--llm-base-url <url>', 'point every model role at this OpenAI-compatible endpoint', parseBaseUrl)
    .option('--llm-model <name>', 'model served by --llm-base-url')
    .option('--llm-api-key-env <var>', 'environment variable holding the API key')
    .option('--budget-usd <x>', 'stop cleanly before spending more than this', parseNumber)
    .option(
      '--price-input-per-m <usd>',
      'USD per 1M prompt tokens for endpoints with no price (known hosted models are priced already)',
      parseNumber,
    )
    .option(
      '--price-output-per-m <usd>',
      'USD per 1M completion tokens for endpoints with no price',
      parseNumber,
    )
    .option(
      '--workers <n>',
      'worker threads for offline CPU-bound stages (default: one per core; 1 = none)',
      (v) => Math.max(1, Math.trunc(parseNumber(v))),
    )
    .option('--quiet', 'no progress output')
    .option('--json', 'machine-readable progress events on stdout');
}

/** run, plan, synth, memory, validate, export, report, merge, inspect. */
export function registerDataCommands(program: Command): void {
  withRunFlags(
    program
      .command('run <pipeline>')
      .description('run every stage the pipeline names (resumes an interrupted run)')
      .requiredOption('--out <dir>', 'run directory')
      .option(
        '--shard <i/n|auto>',
        'process only shard i of n (users split deterministically); auto: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX',
        parseShard,
      )
      .option('--shards <n>', 'with --shard auto: the number of shards', (v) => Math.trunc(parseNumber(v)))
      .option('--strict', 'exit 1 when a fidelity figure is off its target (as validate.strict: true)')
      .option('--force', 'write into a non-empty --out that is not a persona-forge run'),
  ).action(async (file: string, flags: RunFlags) => {
    const summary = await withInterrupts(
      flags.out,
      `persona-forge run ${file} --out ${flags.out}`,
      async (signal) => (await pipeline()).runPipelineFile(file, { ...runOptions(flags), signal }),
    );
    if (summary === undefined) return;
    printWhere(summary, flags);
    await finishWithAlarms(summary.runDir, flags);
  });

  withRunFlags(
    program
      .command('plan <pipeline>')
      .description('sample personas and write plan/plan.jsonl')
      .requiredOption('--out <dir>', 'run directory')
      .option('--force', 'write into a non-empty --out that is not a persona-forge run'),
  ).action(async (file: string, flags: RunFlags) => {
    printWhere(
      await (await pipeline()).runPipelineFile(file, { ...runOptions(flags), only: ['plan'] }),
      flags,
    );
  });

  withRunFlags(
    program
      .command('synth <plan-dir>')
      .description('realize the plans of a run directory into dialogues/dialogues.jsonl')
      .requiredOption('--out <dir>', 'run directory to write (may be the plan directory)'),
  ).action(async (planDir: string, flags: RunFlags) => {
    if (resolve(planDir) !== resolve(flags.out)) {
      await mkdir(flags.out, { recursive: true });
      await cp(join(planDir, 'plan'), join(flags.out, 'plan'), { recursive: true });
      await cp(join(planDir, 'manifest.json'), join(flags.out, 'manifest.json'));
      await cp(join(planDir, '.state'), join(flags.out, '.state'), { recursive: true });
    }
    const { outDir: _ignored, ...rest } = runOptions(flags);
    printWhere(await (await pipeline()).runStagesInDir(flags.out, ['synth'], rest), flags);
  });

  for (const [name, description] of [
    ['memory', 'replay memory over the dialogues: memory/ snapshots, traces, trajectories'],
    ['validate', 'rule and judge checks, dedup: validation.json and quarantine.jsonl'],
    ['export', 'SFT / RL / eval datasets, parquet and dataset card under export/'],
    ['report', 'self-contained report.html with charts'],
  ] as const) {
    const command = withRunFlags(program.command(`${name} <run-dir>`).description(description));
    if (name === 'validate')
      command.option(
        '--strict',
        'exit 1 when a fidelity figure is off its target (as validate.strict: true)',
      );
    command.action(async (runDir: string, flags: RunFlags) => {
      refuseInapplicable(name, flags);
      const { outDir: _ignored, ...rest } = runOptions({ ...flags, out: runDir });
      printWhere(await (await pipeline()).runStagesInDir(runDir, [name], rest), flags);
      if (name === 'validate') await finishWithAlarms(runDir, flags);
    });
  }

  program
    .command('merge <dirs...>')
    .description('combine --shard run directories, then run the whole-corpus stages')
    .requiredOption('--out <dir>', 'merged run directory')
    .option('--force', 'write into a non-empty --out that is not a persona-forge run')
    .option('--quiet', 'no progress output')
    .option('--json', 'machine-readable progress events')
    .action(
      async (dirs: string[], flags: { out: string; force?: boolean; quiet?: boolean; json?: boolean }) => {
        printWhere(
          await (await pipeline()).mergeAndFinish(dirs, flags.out, {
            reporter: createReporter(outputMode(flags)),
            ...(flags.force === true ? { adopt: true } : {}),
          }),
          flags,
        );
      },
    );

  const inspect = program.command('inspect').description('look inside a run directory');
  inspect
    .command('plan <dir>')
    .description("print one user's planned timeline")
    .requiredOption('--user <id>', 'user id, e.g. train-00000')
    .action(async (dir: string, flags: { user: string }) => {
      const { findUserPlan, formatPlanTimeline } = await import('../../plan/index.js');
      console.log(formatPlanTimeline(await findUserPlan(dir, flags.user)));
    });
}
