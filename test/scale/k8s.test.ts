import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';

/**
 * `persona-forge k8s run|train` through the shipped binary: the manifests are checked with the
 * types of @kubernetes/client-node (batch/v1 Job, core/v1 PodTemplateSpec: a round trip through its
 * ObjectSerializer drops anything the API does not define, so equality means every field is
 * known and of the right type), and the Kubeflow PyTorchJob envelope against the v1 Go types
 * (kubeflow/training-operator `pkg/apis/kubeflow.org/v1`: PyTorchJobSpec{runPolicy,
 * pytorchReplicaSpecs map[Master|Worker]ReplicaSpec{replicas, template, restartPolicy}}).
 */
const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(repoRoot, 'bin/persona-forge.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pf-k8s-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function roundTrip(object: unknown, type: string): unknown {
  return ObjectSerializer.serialize(ObjectSerializer.deserialize(object, type, ''), type, '');
}

const ReplicaSpec = z.strictObject({
  replicas: z.number().int().positive(),
  restartPolicy: z.enum(['Always', 'OnFailure', 'Never', 'ExitCode']),
  template: z.record(z.string(), z.unknown()),
});
const PyTorchJob = z.strictObject({
  apiVersion: z.literal('kubeflow.org/v1'),
  kind: z.literal('PyTorchJob'),
  metadata: z.record(z.string(), z.unknown()),
  spec: z.strictObject({
    runPolicy: z.strictObject({
      cleanPodPolicy: z.enum(['All', 'Running', 'None']).optional(),
      backoffLimit: z.number().int().optional(),
    }),
    pytorchReplicaSpecs: z.strictObject({ Master: ReplicaSpec, Worker: ReplicaSpec.optional() }),
  }),
});

describe('persona-forge k8s (manifests written, never applied)', () => {
  it('k8s run: an Indexed batch/v1 Job running the same shard command as the Slurm array, and a merge Job', async () => {
    const out = path.join(dir, 'q');
    await run(
      process.execPath,
      [BIN, 'k8s', 'run', 'pipelines/quickstart.yaml', '--out', out, '--shards', '3', '--pvc', 'pf-data'],
      {
        cwd: repoRoot,
      },
    );
    const job = parse(readFileSync(path.join(out, 'k8s/run-job.yaml'), 'utf8'));
    const merge = parse(readFileSync(path.join(out, 'k8s/merge-job.yaml'), 'utf8'));
    expect(roundTrip(job, 'V1Job')).toEqual(job);
    expect(roundTrip(merge, 'V1Job')).toEqual(merge);
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 3, parallelism: 3 });
    const container = job.spec.template.spec.containers[0];
    expect(container.args).toEqual([
      'run',
      'pipelines/quickstart.yaml',
      '--out',
      `${out}/shards/$(JOB_COMPLETION_INDEX)`,
      '--shard',
      'auto',
      '--shards',
      '3',
    ]);
    expect(job.spec.template.spec.volumes).toEqual([
      { name: 'work', persistentVolumeClaim: { claimName: 'pf-data' } },
    ]);
    expect(merge.spec.template.spec.containers[0].args).toEqual([
      'merge',
      ...[0, 1, 2].map((i) => `${out}/shards/${i}`),
      '--out',
      out,
    ]);
    // The same commands as the Slurm scripts.
    await run(
      process.execPath,
      [BIN, 'slurm', 'run', 'pipelines/quickstart.yaml', '--out', out, '--shards', '3'],
      {
        cwd: repoRoot,
      },
    );
    const sbatch = readFileSync(path.join(out, 'slurm/run.sbatch'), 'utf8');
    expect(sbatch).toContain(`--out ${out}/shards/"$SLURM_ARRAY_TASK_ID"`);
    expect(sbatch).toContain('--shard auto --shards 3');
    expect(readFileSync(path.join(out, 'slurm/merge.sbatch'), 'utf8')).toContain(
      `merge ${[0, 1, 2].map((i) => `${out}/shards/${i}`).join(' ')} --out ${out}`,
    );
  });

  it('k8s train: a kubeflow.org/v1 PyTorchJob with Master + Workers running train --node-rank $(RANK)', async () => {
    const recipe = path.join(dir, 'sft-2nodes.yaml');
    writeFileSync(
      recipe,
      `extends: ${path.join(repoRoot, 'recipes/personavlm-sft.yaml')}\ndistributed:\n  nodes: 2\n`,
    );
    const out = path.join(dir, 't');
    const { stdout } = await run(
      process.execPath,
      [BIN, 'k8s', 'train', recipe, '--out', out, '--image', 'registry.local/pf:1'],
      {
        cwd: repoRoot,
      },
    );
    const file = /wrote (\S+)/.exec(stdout)?.[1] as string;
    const job = parse(readFileSync(file, 'utf8'));
    expect(PyTorchJob.safeParse(job).success).toBe(true);
    for (const role of ['Master', 'Worker'] as const) {
      const template = job.spec.pytorchReplicaSpecs[role].template;
      expect(roundTrip(template, 'V1PodTemplateSpec')).toEqual(template);
      const container = template.spec.containers[0];
      expect(container.image).toBe('registry.local/pf:1');
      expect(container.args).toEqual([
        'train',
        recipe,
        '--node-rank',
        '$(RANK)',
        '--master-addr',
        '$(MASTER_ADDR)',
      ]);
      expect(container.resources.limits['nvidia.com/gpu']).toBe('8');
    }
    expect(job.spec.pytorchReplicaSpecs.Master.replicas).toBe(1);
    expect(job.spec.pytorchReplicaSpecs.Worker.replicas).toBe(1);
  });

  it('k8s train of a GRPO recipe: pods get the reward server URL, its token from a named Secret, and a memory /dev/shm', async () => {
    const out = path.join(dir, 'grpo');
    const recipe = path.join(repoRoot, 'recipes/personavlm-grpo.yaml');
    const env = { ...process.env, PERSONA_FORGE_URL: undefined };
    const { stdout } = await run(
      process.execPath,
      [
        BIN,
        'k8s',
        'train',
        recipe,
        '--out',
        out,
        '--reward-url',
        'http://pf-rewards:8000',
        '--namespace',
        'ml',
      ],
      { cwd: repoRoot, env },
    );
    expect(stdout).toContain(
      'needs Secret persona-forge-reward (key token, read as PERSONA_FORGE_TOKEN); create it with: kubectl create secret generic persona-forge-reward -n ml --from-literal=token="$PERSONA_FORGE_TOKEN"',
    );
    const file = /wrote (\S+)/.exec(stdout)?.[1] as string;
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# Needs Secret persona-forge-reward \(key token/m);
    const job = parse(text);
    expect(PyTorchJob.safeParse(job).success).toBe(true);
    const template = job.spec.pytorchReplicaSpecs.Master.template;
    expect(roundTrip(template, 'V1PodTemplateSpec')).toEqual(template);
    const container = template.spec.containers[0];
    expect(container.env).toEqual([
      { name: 'PERSONA_FORGE_URL', value: 'http://pf-rewards:8000' },
      {
        name: 'PERSONA_FORGE_TOKEN',
        valueFrom: { secretKeyRef: { name: 'persona-forge-reward', key: 'token' } },
      },
    ]);
    expect(container.volumeMounts).toContainEqual({ name: 'dshm', mountPath: '/dev/shm' });
    expect(template.spec.volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory' } });
    // The URL comes from PERSONA_FORGE_URL as README step 1 exports it; a loopback one is refused.
    const fromEnv = await run(
      process.execPath,
      [BIN, 'k8s', 'train', recipe, '--out', path.join(dir, 'grpo-env')],
      {
        cwd: repoRoot,
        env: { ...process.env, PERSONA_FORGE_URL: 'http://10.0.0.7:8000' },
      },
    );
    const envJob = parse(readFileSync(/wrote (\S+)/.exec(fromEnv.stdout)?.[1] as string, 'utf8'));
    expect(envJob.spec.pytorchReplicaSpecs.Master.template.spec.containers[0].env[0]).toEqual({
      name: 'PERSONA_FORGE_URL',
      value: 'http://10.0.0.7:8000',
    });
    const loopback = await run(
      process.execPath,
      [BIN, 'k8s', 'train', recipe, '--out', path.join(dir, 'grpo-lo')],
      {
        cwd: repoRoot,
        env,
      },
    ).catch((e: { stderr: string; code: number }) => e);
    expect((loopback as { code: number }).code).toBe(1);
    expect((loopback as { stderr: string }).stderr).toMatch(
      /reward server is http:\/\/127\.0\.0\.1:8000, a loopback address/,
    );
  });

  it('k8s run with --llm-api-key-env names the Secret its pods read', async () => {
    const out = path.join(dir, 'secret');
    const { stdout } = await run(
      process.execPath,
      [
        BIN,
        'k8s',
        'run',
        'pipelines/quickstart.yaml',
        '--out',
        out,
        '--shards',
        '2',
        '--llm-base-url',
        'http://vllm:8000/v1',
        '--llm-model',
        'm',
        '--llm-api-key-env',
        'OPENAI_API_KEY',
      ],
      { cwd: repoRoot },
    );
    expect(stdout).toContain(
      'needs Secret persona-forge-llm (key api-key, read as OPENAI_API_KEY); create it with: kubectl create secret generic persona-forge-llm --from-literal=api-key="$OPENAI_API_KEY"',
    );
    const text = readFileSync(path.join(out, 'k8s/run-job.yaml'), 'utf8');
    expect(text).toMatch(/^# Needs Secret persona-forge-llm \(key api-key, read as OPENAI_API_KEY\)/m);
    const env = parse(text).spec.template.spec.containers[0].env;
    expect(env).toContainEqual({
      name: 'OPENAI_API_KEY',
      valueFrom: { secretKeyRef: { name: 'persona-forge-llm', key: 'api-key' } },
    });
  });

  it('rejects a run directory outside the mounted volume', async () => {
    const failed = await run(
      process.execPath,
      [BIN, 'k8s', 'run', 'pipelines/quickstart.yaml', '--out', '../elsewhere', '--shards', '2'],
      { cwd: repoRoot },
    ).catch((e: { stderr: string; code: number }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/--out.*leaves the working directory/);
  });
});
