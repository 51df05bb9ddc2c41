import { describe, expect, it } from 'vitest';
import { resolveAutoShard } from './shard.js';

describe('--shard auto', () => {
  it('reads a Slurm array task', () => {
    expect(resolveAutoShard({ SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '4' })).toEqual({
      index: 2,
      count: 4,
    });
  });
  it('prefers --shards over SLURM_ARRAY_TASK_COUNT (a resubmitted subset has fewer tasks)', () => {
    expect(resolveAutoShard({ SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '1' }, 3)).toEqual({
      index: 1,
      count: 3,
    });
  });
  it('reads a Kubernetes Indexed Job with the count from --shards or PERSONA_FORGE_SHARDS', () => {
    expect(resolveAutoShard({ JOB_COMPLETION_INDEX: '0' }, 5)).toEqual({ index: 0, count: 5 });
    expect(resolveAutoShard({ JOB_COMPLETION_INDEX: '4', PERSONA_FORGE_SHARDS: '5' })).toEqual({
      index: 4,
      count: 5,
    });
  });
  it('says what is missing', () => {
    expect(() => resolveAutoShard({})).toThrow(/SLURM_ARRAY_TASK_ID .* JOB_COMPLETION_INDEX/);
    expect(() => resolveAutoShard({ JOB_COMPLETION_INDEX: '1' })).toThrow(
      /--shards N or set PERSONA_FORGE_SHARDS/,
    );
    expect(() => resolveAutoShard({ SLURM_ARRAY_TASK_ID: '3' }, 3)).toThrow(/outside 0..2/);
    expect(() => resolveAutoShard({ SLURM_ARRAY_TASK_ID: 'x' }, 3)).toThrow(/whole number/);
  });
});
