import { describe, expect, it } from 'vitest';
import { Recipe } from '../schemas/recipe.js';
import { resolveBatch } from './batch.js';

const base = {
  name: 'b',
  model: { id: 'm' },
  data: { train: ['a.jsonl'] },
  outputDir: 'out',
};

function sft(h: Record<string, unknown>, gpus = 8, nodes = 1) {
  return Recipe.parse({
    ...base,
    stage: 'sft',
    hyperparameters: { learningRate: 1e-5, maxSteps: 1, maxLength: 10, ...h },
    distributed: { gpusPerNode: gpus, nodes },
  });
}

describe('resolveBatch', () => {
  it('derives accumulation from the global batch (PersonaVLM SFT: 64 = 1 × 8 × 8)', () => {
    const b = resolveBatch(sft({ globalBatchSize: 64, perDeviceBatchSize: 1 }));
    expect(b).toMatchObject({
      perDeviceBatchSize: 1,
      gradientAccumulationSteps: 8,
      globalBatchSize: 64,
      worldSize: 8,
    });
  });

  it('counts nodes in the world size', () => {
    const b = resolveBatch(sft({ globalBatchSize: 64, perDeviceBatchSize: 2 }, 8, 2));
    expect(b.gradientAccumulationSteps).toBe(2);
  });

  it('names the numbers when the product misses the global batch', () => {
    expect(() =>
      resolveBatch(sft({ globalBatchSize: 64, perDeviceBatchSize: 2, gradientAccumulationSteps: 2 })),
    ).toThrowError(
      "per-device batch 2 × 8 GPUs × 1 node × accumulation 2 = 32, but the recipe's global batch is 64",
    );
  });

  it('rejects a global batch the layout cannot divide', () => {
    expect(() => resolveBatch(sft({ globalBatchSize: 60, perDeviceBatchSize: 1 }))).toThrowError(
      /global batch 60 is not divisible by per-device batch 1 × 8 GPUs × 1 node = 8/,
    );
  });

  it('rejects a GRPO generation batch indivisible by num_generations', () => {
    const r = Recipe.parse({
      ...base,
      stage: 'grpo',
      hyperparameters: {
        learningRate: 1e-6,
        maxSteps: 1,
        maxLength: 10,
        perDeviceBatchSize: 1,
        gradientAccumulationSteps: 1,
      },
      grpo: { numGenerations: 8 },
      distributed: { gpusPerNode: 6 },
      rewards: { functions: [{ name: 'accuracy' }] },
    });
    expect(() => resolveBatch(r)).toThrowError(
      'generation batch 6 (= per-device 1 × 6 GPUs × 1 node × 1 steps per generation) is not divisible by num_generations 8',
    );
  });

  it('accepts the PersonaVLM GRPO layout (72 = 2 × 6 × 6, group 6)', () => {
    const r = Recipe.parse({
      ...base,
      stage: 'grpo',
      hyperparameters: {
        learningRate: 2e-6,
        maxSteps: 1,
        maxLength: 10,
        globalBatchSize: 72,
        perDeviceBatchSize: 2,
        gradientAccumulationSteps: 6,
      },
      grpo: { numGenerations: 6 },
      distributed: { gpusPerNode: 6, vllm: { tensorParallelSize: 2 } },
      rewards: { functions: [{ name: 'accuracy' }] },
    });
    expect(resolveBatch(r).generationBatchSize).toBe(72);
  });
});
