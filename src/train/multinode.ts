import { readFileSync } from 'node:fs';
import { InputError, RecipeError, TrainingJobError } from '../errors/index.js';
import type { Recipe } from '../schemas/recipe.js';
import {
  type BuildTrainCommandOptions,
  buildTrainCommand,
  formatCommandLine,
  type TrainCommand,
} from './command.js';
import { execaRunProcess, type RunProcess } from './process.js';
import { shellQuote } from './shell.js';

/** One node of a multi-node layout. */
export interface NodePlan {
  rank: number;
  /** Host from the hostfile (undefined when commands are printed without one). */
  host: string | undefined;
  command: TrainCommand;
  commandLine: string;
  /** `ssh <host> '<cd … && command>'` when a host is known. */
  sshArgv: string[] | undefined;
}

/**
 * Parses a hostfile: one host per line (`user@host` allowed), `#` comments, an optional
 * DeepSpeed-style `slots=N` that is ignored (GPUs per node come from the recipe). The first host
 * is rank 0 and the default master address.
 *
 * @example
 * parseHostfile('gpu01 slots=8\ngpu02 slots=8\n'); // ['gpu01', 'gpu02']
 */
export function parseHostfile(text: string, source = 'hostfile'): string[] {
  const hosts: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') continue;
    const [host, ...rest] = line.split(/\s+/);
    if (host === undefined || rest.some((r) => !/^slots=\d+$/.test(r))) {
      throw new InputError(source, `line ${i + 1}: expected "host [slots=N]", got "${raw}"`);
    }
    hosts.push(host);
  }
  if (hosts.length === 0) throw new InputError(source, 'no hosts');
  return hosts;
}

/** Options of {@link planNodes}. */
export interface PlanNodesOptions extends BuildTrainCommandOptions {
  /** Hosts in rank order (a parsed hostfile). */
  hosts?: string[];
  /** Working directory on every node for the ssh commands. @default cwd */
  remoteCwd?: string;
}

/**
 * The same `swift` command for every node, differing only in `NODE_RANK`; `MASTER_ADDR` is the
 * option, else the first host's name (without `user@`), else the recipe's. A hostfile must list
 * exactly `distributed.nodes` hosts.
 *
 * @example
 * planNodes(recipe, { hosts: ['gpu01', 'gpu02'] }).map((n) => n.commandLine);
 */
export function planNodes(recipe: Recipe, options: PlanNodesOptions = {}): NodePlan[] {
  const nodes = recipe.distributed.nodes;
  const hosts = options.hosts;
  if (hosts !== undefined && hosts.length !== nodes) {
    throw new RecipeError(
      `the hostfile lists ${hosts.length} hosts but the recipe's distributed.nodes is ${nodes}`,
      {
        hint: 'list one host per node, rank 0 first',
      },
    );
  }
  const firstHost = hosts?.[0]?.replace(/^.*@/, '');
  const masterAddr = options.masterAddr ?? firstHost ?? recipe.distributed.masterAddr;
  const cwd = options.cwd ?? process.cwd();
  const ranks =
    options.nodeRank !== undefined && hosts === undefined ? [options.nodeRank] : [...Array(nodes).keys()];
  return ranks.map((rank) => {
    const command = buildTrainCommand(recipe, { ...options, nodeRank: rank, masterAddr, cwd });
    const commandLine = formatCommandLine(command);
    const host = hosts?.[rank];
    const remote = `cd ${shellQuote(options.remoteCwd ?? cwd)} && ${commandLine}`;
    return {
      rank,
      host,
      command,
      commandLine,
      sshArgv: host === undefined ? undefined : ['ssh', host, remote],
    };
  });
}

/** Options of {@link launchOverSsh}. */
export interface LaunchOverSshOptions {
  runProcess?: RunProcess;
  /** Where each node's prefixed output goes. @default process.stderr */
  output?: (line: string) => void;
  env?: Record<string, string | undefined>;
  /** Forwarded SIGINT/SIGTERM go to every ssh (whose exit ends the remote command). @default process */
  signals?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
}

/**
 * Starts every node's command over ssh (`ssh -o BatchMode=yes host 'cd … && … swift …'`) through
 * the process seam, prefixes output with `[rank host]`, waits for all; the first failing node
 * becomes a `TrainingJobError` naming its command.
 *
 * @example
 * await launchOverSsh(planNodes(recipe, { hosts: parseHostfile(text) }));
 */
export async function launchOverSsh(plans: NodePlan[], options: LaunchOverSshOptions = {}): Promise<void> {
  const run = options.runProcess ?? execaRunProcess;
  const out = options.output ?? ((line: string) => process.stderr.write(`${line}\n`));
  const env = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const signals = options.signals ?? process;
  const children = plans.map((plan) => {
    if (plan.sshArgv === undefined || plan.host === undefined) {
      throw new RecipeError(`node ${plan.rank} has no host; pass --hosts <hostfile>`);
    }
    const [, host, remote] = plan.sshArgv;
    const prefix = `[${plan.rank} ${plan.host}]`;
    const tail: string[] = [];
    const emit = (stream: 'out' | 'err') => (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line === '') continue;
        out(`${prefix} ${line}`);
        if (stream === 'err') tail.push(line);
        if (tail.length > 40) tail.shift();
      }
    };
    const child = run('ssh', ['-o', 'BatchMode=yes', host ?? plan.host, remote ?? plan.commandLine], {
      env,
      onStdout: emit('out'),
      onStderr: emit('err'),
    });
    return { plan, child, tail };
  });
  const forward = (signal: NodeJS.Signals) => () => {
    for (const c of children) c.child.kill(signal);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  signals.on('SIGINT', onInt);
  signals.on('SIGTERM', onTerm);
  try {
    const results = await Promise.all(children.map(async (c) => ({ c, exit: await c.child.result })));
    const failed = results.find((r) => r.exit.exitCode !== 0);
    if (failed !== undefined) {
      throw new TrainingJobError(
        `ssh ${failed.c.plan.host} ${failed.c.plan.commandLine}`,
        failed.exit.exitCode,
        failed.c.tail.join('\n'),
      );
    }
  } finally {
    signals.off('SIGINT', onInt);
    signals.off('SIGTERM', onTerm);
  }
}

/** Reads and parses a hostfile from disk. */
export function readHostfile(file: string): string[] {
  return parseHostfile(readFileSync(file, 'utf8'), file);
}
