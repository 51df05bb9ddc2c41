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
  /** A memory-backed /dev/shm (NCCL and the dataloader workers need more than the 64 MiB default). */
  shm = false,
) {
  const mountPath = options.mountPath ?? '/work';
  const mounts = [
    ...(options.pvc === undefined ? [] : [{ name: 'work', mountPath }]),
    ...(shm ? [{ name: 'dshm', mountPath: '/dev/shm' }] : []),
  ];
  const volumes = [
    ...(options.pvc === undefined
      ? []
      : [{ name: 'work', persistentVolumeClaim: { claimName: options.pvc } }]),
    ...(shm ? [{ name: 'dshm', emptyDir: { medium: 'Memory' } }] : []),
  ];
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
        ...(mounts.length === 0 ? {} : { volumeMounts: mounts }),
      },
    ],
    ...(volumes.length === 0 ? {} : { volumes }),
  };
}

/** A Secret a manifest reads (`secretKeyRef`), with the variable it fills. */
export interface RequiredSecret {
  name: string;
  key: string;
  env: string;
}

/** The Secret holding the LLM API key `k8s run` pods read (`--llm-api-key-env`). */
export const LLM_SECRET = { name: 'persona-forge-llm', key: 'api-key' } as const;
/** The Secret holding the reward server's bearer token GRPO pods read. */
export const REWARD_SECRET = { name: 'persona-forge-reward', key: 'token' } as const;

/**
 * Every Secret key a manifest reads, once each, with the variable it fills: what must exist
 * before `kubectl apply` (printed by the CLI and written at the top of the YAML).
 *
 * @example requiredSecrets(k8sRunManifests({ … llmApiKeyEnv: 'OPENAI_API_KEY' }).run)
 */
export function requiredSecrets(object: unknown): RequiredSecret[] {
  const found = new Map<string, RequiredSecret>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    const ref = (record.valueFrom as { secretKeyRef?: { name: string; key: string } } | undefined)
      ?.secretKeyRef;
    if (typeof record.name === 'string' && ref !== undefined) {
      found.set(`${ref.name}/${ref.key}/${record.name}`, { name: ref.name, key: ref.key, env: record.name });
    }
    for (const child of Object.values(record)) walk(child);
  };
  walk(object);
  return [...found.values()];
}

/** The kubectl line that creates a required Secret from the variable of the same name here. */
export function secretCommand(secret: RequiredSecret, namespace?: string): string {
  return `kubectl create secret generic ${secret.name}${namespace === undefined ? '' : ` -n ${namespace}`} --from-literal=${secret.key}="$${secret.env}"`;
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
            valueFrom: { secretKeyRef: { ...LLM_SECRET } },
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
  /**
   * The reward server as the pods reach it (RL recipes with `rewards`). @default the recipe's
   * `rewards.serverUrl` (which reads PERSONA_FORGE_URL); a loopback address is refused.
   */
  rewardUrl?: string;
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
  const env = rewardEnv(recipe, options.rewardUrl);
  const replica = (replicas: number) => ({
    replicas,
    restartPolicy: 'OnFailure',
    template: {
      metadata: { labels: { 'app.kubernetes.io/name': 'persona-forge' } },
      spec: podSpec(
        options,
        args,
        'OnFailure',
        {
          ...(env.length === 0 ? {} : { env }),
          resources: { limits: { 'nvidia.com/gpu': String(gpus) } },
        },
        true,
      ),
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

/**
 * The pod environment of a recipe that scores with the reward server: PERSONA_FORGE_URL (the
 * recipe reads it for `rewards.serverUrl` in the pod) and the token variable from
 * {@link REWARD_SECRET}. A loopback URL would point each pod at itself: refused.
 */
function rewardEnv(
  recipe: Awaited<ReturnType<typeof loadRecipe>>,
  rewardUrl: string | undefined,
): Array<Record<string, unknown>> {
  if (recipe.rewards === undefined) return [];
  const url = rewardUrl ?? recipe.rewards.serverUrl;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new InputError('--reward-url', `"${url}" is not a URL`, { hint: 'e.g. http://pf-rewards:8000' });
  }
  if (/^(127\.|localhost$|\[::1\]$|::1$|0\.0\.0\.0$)/.test(host)) {
    throw new InputError(
      '--reward-url',
      `the reward server is ${url}, a loopback address: inside a training pod it is the pod itself`,
      {
        hint: 'pass --reward-url with the address pods reach `persona-forge serve` at (a Service, e.g. http://pf-rewards:8000), or export PERSONA_FORGE_URL',
      },
    );
  }
  return [
    { name: 'PERSONA_FORGE_URL', value: url },
    { name: recipe.rewards.tokenEnv, valueFrom: { secretKeyRef: { ...REWARD_SECRET } } },
  ];
}

/** Writes objects as one YAML file each under `<out>/k8s/`. */
export async function writeManifests(outDir: string, files: Record<string, object>): Promise<string[]> {
  const dir = path.join(path.resolve(outDir), 'k8s');
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, object] of Object.entries(files)) {
    const file = path.join(dir, name);
    const namespace = (object as { metadata?: { namespace?: string } }).metadata?.namespace;
    const secrets = requiredSecrets(object).map(
      (secret) =>
        `# Needs Secret ${secret.name} (key ${secret.key}, read as ${secret.env}): ${secretCommand(secret, namespace)}\n`,
    );
    await writeFileAtomic(
      file,
      `# Written by persona-forge; apply with kubectl apply -f ${name}\n${secrets.join('')}${stringify(object)}`,
    );
    written.push(file);
  }
  return written;
}
