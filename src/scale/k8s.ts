import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { InputError } from '../errors/index.js';
import { buildTrainCommand } from '../train/command.js';
import { loadRecipe } from '../train/load-recipe.js';
import { writeFileAtomic } from '../util/fs.js';
import { type ForwardedRunFlags, forwardedArgs } from './slurm/scripts.js';

/** Where the pods find persona-forge and the shared data. */
export interface K8sOptions {
  /** Container image with persona-forge on PATH (see README, *Scale out*). */
  image?: string;
  namespace?: string;
  /** A ReadWriteMany PersistentVolumeClaim mounted at `mountPath` in every pod. */
  pvc?: string;
  /** Where the claim is mounted; it is also the pods' working directory. @default /work */
  mountPath?: string;
  /** How to start persona-forge in the image. @default ['persona-forge'] */
  command?: string[];
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function k8sName(base: string): string {
  const name = base
    .toLowerCase()
    .replace(/\.ya?ml$/, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 52);
  if (!NAME.test(name)) throw new InputError(base, 'cannot make a Kubernetes object name from it');
  return name;
}

function relativeInside(value: string, label: string): string {
  if (path.isAbsolute(value)) return value;
  if (value.split(/[\\/]/).includes('..')) {
    throw new InputError(
      label,
      `"${value}" leaves the working directory; give a path inside the mounted volume`,
    );
  }
  return value;
}

function podSpec(
  options: K8sOptions,
  args: string[],
  restartPolicy: 'Never' | 'OnFailure',
  extra: object = {},
) {
  const mountPath = options.mountPath ?? '/work';
  return {
    restartPolicy,
    containers: [
      {
        name: 'persona-forge',
        image: options.image ?? 'persona-forge:latest',
        workingDir: mountPath,
        command: options.command ?? ['persona-forge'],
        args,
        ...extra,
        ...(options.pvc === undefined ? {} : { volumeMounts: [{ name: 'work', mountPath }] }),
      },
    ],
    ...(options.pvc === undefined
      ? {}
      : { volumes: [{ name: 'work', persistentVolumeClaim: { claimName: options.pvc } }] }),
  };
}

function metadata(name: string, options: K8sOptions) {
  return {
    name,
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    labels: { 'app.kubernetes.io/name': 'persona-forge', 'app.kubernetes.io/component': name },
  };
}

/** Options of {@link k8sRunManifests}. */
export interface K8sRunOptions extends K8sOptions, ForwardedRunFlags {
  pipeline: string;
  out: string;
  shards: number;
}

/**
 * The synthesis as Kubernetes objects: an Indexed `Job` (`completions = parallelism = shards`)
 * whose pod i runs `persona-forge run <pipeline> --out <out>/shards/<i> --shard auto --shards N`
 * (the index comes from `JOB_COMPLETION_INDEX`), and a `Job` that merges the shards into `<out>`.
 * Kubernetes has no job dependencies: apply the merge after the array completes (README).
 */
export function k8sRunManifests(options: K8sRunOptions): { run: object; merge: object } {
  if (!Number.isInteger(options.shards) || options.shards < 1 || options.shards > 100_000) {
    throw new InputError('--shards', `expected a whole number from 1 to 100000, got ${options.shards}`);
  }
  const pipeline = relativeInside(options.pipeline, 'pipeline');
  const out = relativeInside(options.out, '--out');
  const base = k8sName(`pf-${path.basename(options.pipeline)}`);
  const env = [
    { name: 'PERSONA_FORGE_SHARDS', value: String(options.shards) },
    ...(options.llmApiKeyEnv === undefined
      ? []
      : [
          {
            name: options.llmApiKeyEnv,
            valueFrom: { secretKeyRef: { name: 'persona-forge-llm', key: 'api-key' } },
          },
        ]),
  ];
  const run = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(`${base}-run`, options),
    spec: {
      completionMode: 'Indexed',
      completions: options.shards,
      parallelism: options.shards,
      backoffLimitPerIndex: 3,
      maxFailedIndexes: options.shards,
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'persona-forge' } },
        spec: podSpec(
          options,
          [
            'run',
            pipeline,
            '--out',
            `${out}/shards/$(JOB_COMPLETION_INDEX)`,
            '--shard',
            'auto',
            '--shards',
            String(options.shards),
            ...forwardedArgs(options),
          ],
          'Never',
          {
            env: [
              {
                name: 'JOB_COMPLETION_INDEX',
                valueFrom: {
                  fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" },
                },
              },
              ...env,
            ],
          },
        ),
      },
    },
  };
  const shardDirs = [...Array(options.shards).keys()].map((i) => `${out}/shards/${i}`);
  const merge = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata(`${base}-merge`, options),
    spec: {
      backoffLimit: 2,
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'persona-forge' } },
        spec: podSpec(options, ['merge', ...shardDirs, '--out', out], 'Never'),
      },
    },
  };
  return { run, merge };
}

/** Options of {@link k8sTrainManifest}. */
export interface K8sTrainOptions extends K8sOptions {
  recipe: string;
  env?: Record<string, string | undefined>;
  /** GPUs per pod (`nvidia.com/gpu`). @default the recipe's distributed.gpusPerNode */
  gpusPerNode?: number;
}

/**
 * A Kubeflow `PyTorchJob` (kubeflow.org/v1) for one training stage: a Master replica and
 * `nodes - 1` Workers, each pod running `persona-forge train <recipe> --node-rank $(RANK)
 * --master-addr $(MASTER_ADDR)` — the operator sets `RANK` (0 for the master) and
 * `MASTER_ADDR` in every pod — with `nvidia.com/gpu` limits from the recipe.
 */
export async function k8sTrainManifest(options: K8sTrainOptions): Promise<object> {
  const recipe = await loadRecipe(options.recipe, options.env === undefined ? {} : { env: options.env });
  const recipePath = relativeInside(options.recipe, 'recipe');
  const gpus = options.gpusPerNode ?? recipe.distributed.gpusPerNode;
  const nodes = recipe.distributed.nodes;
  // Resolve once so a broken recipe fails here, not in the cluster.
  buildTrainCommand(recipe, { cwd: options.mountPath ?? '/work' });
  const args = ['train', recipePath, '--node-rank', '$(RANK)', '--master-addr', '$(MASTER_ADDR)'];
  const replica = (replicas: number) => ({
    replicas,
    restartPolicy: 'OnFailure',
    template: {
      metadata: { labels: { 'app.kubernetes.io/name': 'persona-forge' } },
      spec: podSpec(options, args, 'OnFailure', {
        resources: { limits: { 'nvidia.com/gpu': String(gpus) } },
      }),
    },
  });
  return {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: metadata(k8sName(`pf-train-${recipe.name}`), options),
    spec: {
      runPolicy: { cleanPodPolicy: 'None', backoffLimit: 3 },
      pytorchReplicaSpecs: {
        Master: replica(1),
        ...(nodes > 1 ? { Worker: replica(nodes - 1) } : {}),
      },
    },
  };
}

/** Writes objects as one YAML file each under `<out>/k8s/`. */
export async function writeManifests(outDir: string, files: Record<string, object>): Promise<string[]> {
  const dir = path.join(path.resolve(outDir), 'k8s');
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, object] of Object.entries(files)) {
    const file = path.join(dir, name);
    await writeFileAtomic(
      file,
      `# Written by persona-forge; apply with kubectl apply -f ${name}\n${stringify(object)}`,
    );
    written.push(file);
  }
  return written;
}
