import { RecipeError } from '../errors/index.js';
import type { Recipe } from '../schemas/recipe.js';

/** The batch layout a recipe resolves to. */
export interface BatchLayout {
  worldSize: number;
  perDeviceBatchSize: number;
  gradientAccumulationSteps: number;
  /** per-device × GPUs × nodes × accumulation. */
  globalBatchSize: number;
  /** GRPO only: completions generated per generation round (ms-swift's `generation_batch_size`). */
  generationBatchSize?: number;
}

/**
 * Resolves and checks the batch arithmetic before anything launches:
 * per-device batch × GPUs per node × nodes × accumulation must equal `globalBatchSize`; a
 * missing per-device batch or accumulation is derived from it. For GRPO the generation batch
 * (`generation_batch_size`, else per-device × world × `steps_per_generation` or accumulation —
 * ms-swift `args_mixin.py:_init_generation_batch_params`) must be divisible by `num_generations`,
 * and vLLM's tensor-parallel size must divide the world size. Errors name every number.
 *
 * @example
 * resolveBatch(recipe).gradientAccumulationSteps; // 8 for 64 = 1 × 8 GPUs × 1 node × 8
 */
export function resolveBatch(recipe: Recipe): BatchLayout {
  const { nodes, gpusPerNode } = recipe.distributed;
  const world = nodes * gpusPerNode;
  const h = recipe.hyperparameters;
  const worldText = `${gpusPerNode} GPUs × ${nodes} node${nodes === 1 ? '' : 's'}`;
  let pd = h.perDeviceBatchSize;
  let gas = h.gradientAccumulationSteps;
  const global = h.globalBatchSize;
  if (global !== undefined) {
    if (pd === undefined && gas === undefined) pd = 1;
    if (pd === undefined && gas !== undefined) {
      if (global % (gas * world) !== 0) {
        throw new RecipeError(
          `global batch ${global} is not divisible by accumulation ${gas} × ${worldText} = ${gas * world}`,
          { hint: 'change hyperparameters.globalBatchSize, gradientAccumulationSteps or the GPU layout' },
        );
      }
      pd = global / (gas * world);
    }
    if (pd !== undefined && gas === undefined) {
      if (global % (pd * world) !== 0) {
        throw new RecipeError(
          `global batch ${global} is not divisible by per-device batch ${pd} × ${worldText} = ${pd * world}`,
          { hint: 'change hyperparameters.globalBatchSize, perDeviceBatchSize or the GPU layout' },
        );
      }
      gas = global / (pd * world);
    }
  }
  pd ??= 1;
  gas ??= 1;
  const product = pd * world * gas;
  if (global !== undefined && product !== global) {
    throw new RecipeError(
      `per-device batch ${pd} × ${worldText} × accumulation ${gas} = ${product}, but the recipe's global batch is ${global}`,
      {
        hint: 'make perDeviceBatchSize × gpusPerNode × nodes × gradientAccumulationSteps equal globalBatchSize',
      },
    );
  }
  const layout: BatchLayout = {
    worldSize: world,
    perDeviceBatchSize: pd,
    gradientAccumulationSteps: gas,
    globalBatchSize: product,
  };
  if (recipe.stage !== 'grpo') return layout;
  const g = recipe.grpo?.numGenerations ?? 8;
  const steps = recipe.grpo?.stepsPerGeneration ?? gas;
  const generation = recipe.grpo?.generationBatchSize ?? pd * world * steps;
  const how =
    recipe.grpo?.generationBatchSize !== undefined
      ? `generation batch ${generation}`
      : `generation batch ${generation} (= per-device ${pd} × ${worldText} × ${steps} steps per generation)`;
  if (generation % g !== 0) {
    throw new RecipeError(`${how} is not divisible by num_generations ${g}`, {
      hint: `make the generation batch a multiple of ${g} (e.g. adjust perDeviceBatchSize or gradientAccumulationSteps)`,
    });
  }
  const evalBs = h.perDeviceEvalBatchSize;
  if (
    evalBs !== undefined &&
    h.evalStrategy !== undefined &&
    h.evalStrategy !== 'no' &&
    (evalBs * world) % g !== 0
  ) {
    throw new RecipeError(
      `eval batch ${evalBs} × ${worldText} = ${evalBs * world} is not divisible by num_generations ${g}`,
    );
  }
  const vllm = recipe.distributed.vllm;
  const tp = vllm.tensorParallelSize ?? 1;
  if (vllm.enabled && vllm.mode === 'colocate' && world % tp !== 0) {
    throw new RecipeError(
      `vLLM tensor parallel size ${tp} does not divide the world size ${world} (${worldText})`,
    );
  }
  layout.generationBatchSize = generation;
  return layout;
}
