import type { Command } from 'commander';
import { parseBaseUrl, parseMemory, parseNumber } from '../parse.js';

// Library modules load on demand so `--help` and small commands start fast.
const scale = () => import('../../scale/index.js');

interface ResourceFlags {
  partition?: string;
  time?: string;
  cpusPerTask?: number;
  mem?: string;
  account?: string;
}

interface RunLikeFlags {
  out: string;
  shards: number;
  seed?: number;
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  budgetUsd?: number;
}

const whole = (v: string) => Math.trunc(parseNumber(v));

/** Slurm resource flags shared by `slurm run` and `train --slurm`. */
export function withSlurmResources(command: Command): Command {
  return command
    .option('--partition <p>', 'Slurm partition')
    .option('--time <HH:MM:SS>', 'time limit of each job')
    .option('--cpus-per-task <c>', 'CPUs of each task', whole)
    .option('--mem <m>', 'memory of each job with its unit, e.g. 16G or 8000M', parseMemory)
    .option('--account <a>', 'Slurm account to charge');
}

function resources(flags: ResourceFlags) {
  return {
    ...(flags.partition === undefined ? {} : { partition: flags.partition }),
    ...(flags.time === undefined ? {} : { time: flags.time }),
    ...(flags.cpusPerTask === undefined ? {} : { cpusPerTask: flags.cpusPerTask }),
    ...(flags.mem === undefined ? {} : { mem: flags.mem }),
    ...(flags.account === undefined ? {} : { account: flags.account }),
  };
}

function runLike(command: Command): Command {
  return command
    .requiredOption('--out <dir>', 'run directory (shards go to <dir>/shards/<i>, the merge writes <dir>)')
    .requiredOption('--shards <n>', 'number of shards', whole)
    .option('--seed <n>', 'override the pipeline seed', whole)
    .option('--llm-base-url <url>', 'point every model role at this OpenAI-compatible endpoint', parseBaseUrl)
    .option('--llm-model <name>', 'model served by --llm-base-url')
    .option('--llm-api-key-env <var>', 'environment variable holding the API key')
    .option('--budget-usd <x>', 'budget of each shard', parseNumber);
}

function forwarded(flags: RunLikeFlags) {
  return {
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.llmBaseUrl === undefined ? {} : { llmBaseUrl: flags.llmBaseUrl }),
    ...(flags.llmModel === undefined ? {} : { llmModel: flags.llmModel }),
    ...(flags.llmApiKeyEnv === undefined ? {} : { llmApiKeyEnv: flags.llmApiKeyEnv }),
    ...(flags.budgetUsd === undefined ? {} : { budgetUsd: flags.budgetUsd }),
  };
}

/** slurm run|resume, status, k8s run|train. */
export function registerScaleCommands(program: Command): void {
  const slurm = program.command('slurm').description('run a pipeline on a Slurm cluster');
  withSlurmResources(
    runLike(
      slurm
        .command('run <pipeline>')
        .description('write (and with --submit, submit) the shard job array and the dependent merge job'),
    ),
  )
    .option('--submit', 'submit with sbatch --parsable and record the job ids in <dir>/slurm/jobs.json')
    .action(async (pipeline: string, flags: RunLikeFlags & ResourceFlags & { submit?: boolean }) => {
      const { slurmRun } = await scale();
      const result = await slurmRun({
        pipeline,
        out: flags.out,
        shards: flags.shards,
        ...forwarded(flags),
        ...resources(flags),
        ...(flags.submit === undefined ? {} : { submit: flags.submit }),
      });
      console.log(`wrote ${result.runScript}`);
      console.log(`wrote ${result.mergeScript}`);
      if (result.arrayJobId !== undefined) {
        console.log(`submitted array job ${result.arrayJobId} (${flags.shards} shards)`);
        console.log(`submitted merge job ${result.mergeJobId} (afterok:${result.arrayJobId})`);
        console.log(`job ids in ${result.jobsFile}; follow with: persona-forge status ${flags.out}`);
      } else {
        const { submitHint } = await import('../../scale/slurm/scripts.js');
        console.log(`submit with: ${submitHint(result.runScript, result.mergeScript)}`);
      }
    });
  slurm
    .command('resume <dir>')
    .description('resubmit the shards that did not finish, then the merge')
    .action(async (dir: string) => {
      const { slurmResume } = await scale();
      const result = await slurmResume(dir);
      if (result.complete) {
        console.log(`${dir} is complete: nothing to resubmit`);
        return;
      }
      if (result.arrayJobId !== undefined) {
        console.log(`resubmitted shards ${result.resubmitted.join(',')} as job ${result.arrayJobId}`);
      }
      console.log(`submitted merge job ${result.mergeJobId}`);
    });

  program
    .command('status <dir>')
    .description('per shard: done / total / quarantined / cost, and the Slurm state of each job')
    .option('--json', 'print the status as JSON')
    .action(async (dir: string, flags: { json?: boolean }) => {
      const { formatRunStatus, runStatus } = await scale();
      const status = await runStatus(dir);
      process.stdout.write(
        flags.json === true ? `${JSON.stringify(status, null, 2)}\n` : formatRunStatus(status),
      );
    });

  const k8s = program.command('k8s').description('write Kubernetes manifests (never applied)');
  const withK8s = (command: Command) =>
    command
      .option('--image <image>', 'container image with persona-forge on PATH', 'persona-forge:latest')
      .option('--namespace <ns>', 'namespace of the objects')
      .option('--pvc <claim>', 'ReadWriteMany PersistentVolumeClaim holding the repository and outputs')
      .option('--mount-path <path>', 'where the claim is mounted (the working directory)', '/work');
  interface K8sFlags {
    image: string;
    namespace?: string;
    pvc?: string;
    mountPath: string;
  }
  const k8sOptions = (flags: K8sFlags) => ({
    image: flags.image,
    mountPath: flags.mountPath,
    ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    ...(flags.pvc === undefined ? {} : { pvc: flags.pvc }),
  });
  withK8s(
    runLike(k8s.command('run <pipeline>').description('an Indexed Job for the shards and a merge Job')),
  ).action(async (pipeline: string, flags: RunLikeFlags & K8sFlags) => {
    const { k8sRunManifests, writeManifests } = await scale();
    const { run, merge } = k8sRunManifests({
      pipeline,
      out: flags.out,
      shards: flags.shards,
      ...forwarded(flags),
      ...k8sOptions(flags),
    });
    for (const file of await writeManifests(flags.out, { 'run-job.yaml': run, 'merge-job.yaml': merge })) {
      console.log(`wrote ${file}`);
    }
    await printSecrets(run, flags.namespace);
  });
  withK8s(
    k8s
      .command('train <recipe>')
      .description('a Kubeflow PyTorchJob for one training stage')
      .requiredOption('--out <dir>', 'folder for the manifest (<dir>/k8s/)')
      .option(
        '--reward-url <url>',
        'RL recipes: the reward server as pods reach it (default: the recipe rewards.serverUrl / PERSONA_FORGE_URL)',
      ),
  ).action(async (recipe: string, flags: K8sFlags & { out: string; rewardUrl?: string }) => {
    const { k8sTrainManifest, writeManifests } = await scale();
    const job = await k8sTrainManifest({
      recipe,
      ...k8sOptions(flags),
      ...(flags.rewardUrl === undefined ? {} : { rewardUrl: flags.rewardUrl }),
    });
    const name = `${(job as { metadata: { name: string } }).metadata.name}-pytorchjob.yaml`;
    for (const file of await writeManifests(flags.out, { [name]: job })) console.log(`wrote ${file}`);
    await printSecrets(job, flags.namespace);
  });
}

/** Says which Secrets the written objects read, with the kubectl line that creates each. */
async function printSecrets(object: object, namespace: string | undefined): Promise<void> {
  const { requiredSecrets, secretCommand } = await scale();
  for (const secret of requiredSecrets(object)) {
    console.log(
      `needs Secret ${secret.name} (key ${secret.key}, read as ${secret.env}); create it with: ${secretCommand(secret, namespace)}`,
    );
  }
}
