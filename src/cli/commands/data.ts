import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { RunSummary } from '../../pipeline/runner.js';
import { resolveAutoShard } from '../../scale/shard.js';
import { parseNumber, parseShard } from '../parse.js';
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
    ...(flags.force === true ? { adopt: true } : {}),
  };
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
    .option('--llm-base-url <url>', 'point every model role at this OpenAI-compatible endpoint')
    .option('--llm-model <name>', 'model served by --llm-base-url')
    .option('--llm-api-key-env <var>', 'environment variable holding the API key')
    .option('--budget-usd <x>', 'stop cleanly before spending more than this', parseNumber)
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
      .option('--force', 'write into a non-empty --out that is not a persona-forge run'),
  ).action(async (file: string, flags: RunFlags) => {
    printWhere(await (await pipeline()).runPipelineFile(file, runOptions(flags)), flags);
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
    withRunFlags(program.command(`${name} <run-dir>`).description(description)).action(
      async (runDir: string, flags: RunFlags) => {
        const { outDir: _ignored, ...rest } = runOptions({ ...flags, out: runDir });
        printWhere(await (await pipeline()).runStagesInDir(runDir, [name], rest), flags);
      },
    );
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
