import type { Command } from 'commander';
import { InputError } from '../../errors/index.js';
import { setExitCode } from '../main.js';
import { parseNumber } from '../parse.js';
import { withSlurmResources } from './scale.js';

interface TrainFlags {
  dryRun?: boolean;
  nodeRank?: number;
  masterAddr?: string;
  resume?: boolean;
  hosts?: string;
  launch?: boolean;
  slurm?: boolean;
  submit?: boolean;
  rlOnly?: boolean;
  partition?: string;
  time?: string;
  cpusPerTask?: number;
  mem?: string;
  account?: string;
}

/**
 * `persona-forge train <recipe>` and `train chain <sft> <rl>`: launch ms-swift (or print every
 * node's command, or write and submit sbatch scripts), requeueing on Slurm's USR1.
 */
export function registerTrainCommand(program: Command): void {
  const train = program
    .command('train <recipe...>')
    .description(
      'launch ms-swift from a recipe; `train chain <sft.yaml> <rl.yaml>` runs SFT then RL from its checkpoint',
    )
    .option('--dry-run', "print each node's environment and swift command, then the preflight; start nothing")
    .option('--node-rank <n>', "this node's rank in a multi-node run", (v) => Math.trunc(parseNumber(v)))
    .option('--master-addr <host>', 'rank-0 host for multi-node runs')
    .option('--resume', 'resume from the latest checkpoint')
    .option('--hosts <file>', "hostfile: print every node's command (with --launch, start them over ssh)")
    .option('--launch', 'with --hosts: start every node over ssh')
    .option(
      '--slurm',
      'write an sbatch for the stage (chain: SFT, then RL afterok:SFT) instead of running it',
    )
    .option('--submit', 'with --slurm: submit with sbatch --parsable')
    .option('--rl-only', "train chain: only the RL stage, from the SFT run's newest checkpoint");
  withSlurmResources(train).action(async (args: string[], flags: TrainFlags) => {
    const [recipe, ...rest] = args as [string, ...string[]];
    if (flags.slurm !== true) {
      // Slurm-only flags without --slurm would silently start local training instead.
      const slurmOnly = (
        [
          ['--submit', flags.submit],
          ['--partition', flags.partition],
          ['--time', flags.time],
          ['--cpus-per-task', flags.cpusPerTask],
          ['--mem', flags.mem],
          ['--account', flags.account],
        ] as const
      ).filter(([, value]) => value !== undefined);
      if (slurmOnly.length > 0) {
        throw new InputError(
          slurmOnly.map(([name]) => name).join(', '),
          'only applies with --slurm (writing or submitting an sbatch script); nothing was started',
          { hint: `add --slurm, e.g. persona-forge train ${args.join(' ')} --slurm --submit` },
        );
      }
    }
    const chain = recipe === 'chain';
    if (chain && (rest.length !== 2 || rest[0] === undefined || rest[1] === undefined)) {
      throw new Error('usage: persona-forge train chain <sft.yaml> <rl.yaml> [--dry-run]');
    }
    if (!chain && rest.length > 0) {
      throw new Error(
        `unexpected argument "${rest[0]}" (did you mean \`train chain ${recipe} ${rest[0]}\`?)`,
      );
    }
    if (flags.slurm === true) {
      const { slurmTrain, slurmTrainChain } = await import('../../scale/index.js');
      const options = {
        ...(flags.submit === undefined ? {} : { submit: flags.submit }),
        ...(flags.partition === undefined ? {} : { partition: flags.partition }),
        ...(flags.time === undefined ? {} : { time: flags.time }),
        ...(flags.cpusPerTask === undefined ? {} : { cpusPerTask: flags.cpusPerTask }),
        ...(flags.mem === undefined ? {} : { mem: flags.mem }),
        ...(flags.account === undefined ? {} : { account: flags.account }),
      };
      const jobs = chain
        ? await slurmTrainChain(rest[0] as string, rest[1] as string, options)
        : [await slurmTrain(recipe, options)];
      for (const job of jobs) {
        console.log(`wrote ${job.script}`);
        if (job.jobId !== undefined) {
          console.log(
            `submitted job ${job.jobId}${job.dependsOn === undefined ? '' : ` (afterok:${job.dependsOn})`}`,
          );
        }
      }
      if (flags.submit !== true) process.stdout.write(`\n${jobs.map((j) => j.text).join('\n')}`);
      return;
    }
    const { trainChainCommand, trainCommand } = await import('../../train/index.js');
    const { requeueOnTimeLimit, trainRlAfterSft } = await import('../../scale/index.js');
    const options = {
      ...(flags.dryRun === undefined ? {} : { dryRun: flags.dryRun }),
      ...(flags.nodeRank === undefined ? {} : { nodeRank: flags.nodeRank }),
      ...(flags.masterAddr === undefined ? {} : { masterAddr: flags.masterAddr }),
      ...(flags.resume === undefined ? {} : { resume: flags.resume }),
      ...(flags.hosts === undefined ? {} : { hosts: flags.hosts }),
      ...(flags.launch === undefined ? {} : { launch: flags.launch }),
    };
    const stopRequeue = flags.dryRun === true ? async () => {} : requeueOnTimeLimit();
    try {
      if (chain) {
        const [sft, rl] = rest as [string, string];
        setExitCode(
          flags.rlOnly === true
            ? await trainRlAfterSft(sft, rl, options)
            : await trainChainCommand(sft, rl, options),
        );
        return;
      }
      setExitCode(await trainCommand(recipe, options));
    } finally {
      // A requeue under way (USR1 from Slurm) must finish before this process ends the step.
      await stopRequeue();
    }
  });
}
