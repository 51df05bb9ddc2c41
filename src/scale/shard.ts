import { InputError } from '../errors/index.js';

/** One shard of a run: users whose sorted index ≡ `index` (mod `count`). */
export interface ShardSpec {
  index: number;
  count: number;
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new InputError(name, `expected a whole number, got "${value}"`);
  }
  return Number(value.trim());
}

/**
 * Resolves `--shard auto` from the scheduler's environment:
 * - Slurm job arrays: the index is `SLURM_ARRAY_TASK_ID`; the count is `--shards N`, else
 *   `SLURM_ARRAY_TASK_COUNT` (a resubmitted subset of an array has fewer tasks than shards, so
 *   the scripts persona-forge writes always pass `--shards`).
 * - Kubernetes Indexed Jobs: the index is `JOB_COMPLETION_INDEX`; the count is `--shards N`, else
 *   `PERSONA_FORGE_SHARDS` (Kubernetes does not expose the completions count to the pod).
 *
 * @example
 * resolveAutoShard({ SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '4' }); // { index: 2, count: 4 }
 */
export function resolveAutoShard(env: Record<string, string | undefined>, shards?: number): ShardSpec {
  const slurmIndex = wholeNumber(env.SLURM_ARRAY_TASK_ID, 'SLURM_ARRAY_TASK_ID');
  const k8sIndex = wholeNumber(env.JOB_COMPLETION_INDEX, 'JOB_COMPLETION_INDEX');
  const index = slurmIndex ?? k8sIndex;
  if (index === undefined) {
    throw new InputError(
      '--shard auto',
      'neither SLURM_ARRAY_TASK_ID (Slurm job array) nor JOB_COMPLETION_INDEX (Kubernetes Indexed Job) is set',
      { hint: 'run inside a Slurm array task or an Indexed Job, or pass --shard i/n' },
    );
  }
  const count =
    shards ??
    (slurmIndex !== undefined
      ? wholeNumber(env.SLURM_ARRAY_TASK_COUNT, 'SLURM_ARRAY_TASK_COUNT')
      : wholeNumber(env.PERSONA_FORGE_SHARDS, 'PERSONA_FORGE_SHARDS'));
  if (count === undefined) {
    throw new InputError(
      '--shard auto',
      `the shard count is unknown: pass --shards N${slurmIndex === undefined ? ' or set PERSONA_FORGE_SHARDS' : ''}`,
    );
  }
  if (count < 1 || index >= count) {
    throw new InputError('--shard auto', `shard index ${index} is outside 0..${count - 1}`, {
      hint: 'the array must run indexes 0..N-1 with --shards N',
    });
  }
  return { index, count };
}
