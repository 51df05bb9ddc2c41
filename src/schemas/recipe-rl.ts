import { z } from 'zod';

/**
 * The GPU layout and the reinforcement-learning parts of a training recipe (`recipe.ts`):
 * distributed settings with vLLM rollouts, the reward server and its functions, the multi-turn
 * retrieval environment and the GRPO / DAPO settings.
 */

export const RecipeVllm = z
  .object({
    enabled: z.boolean().default(true).describe('Generate GRPO rollouts with vLLM (`--use_vllm`).'),
    mode: z
      .enum(['colocate', 'server'])
      .default('colocate')
      .describe('ms-swift has no default mode: `use_vllm true` without `vllm_mode` is an error.'),
    gpuMemoryUtilization: z
      .number()
      .gt(0)
      .max(1)
      .optional()
      .describe('ms-swift `--vllm_gpu_memory_utilization`: share of GPU memory vLLM may take.'),
    tensorParallelSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--vllm_tensor_parallel_size`.'),
    maxModelLen: z.number().int().positive().optional().describe('ms-swift `--vllm_max_model_len`.'),
    maxNumSeqs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--vllm_max_num_seqs` (colocate mode).'),
    enforceEager: z
      .boolean()
      .optional()
      .describe('ms-swift `--vllm_enforce_eager` (colocate mode): no CUDA graphs, less memory.'),
    sleepLevel: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .optional()
      .describe(
        'ms-swift `--sleep_level` (colocate mode): 0 keeps vLLM awake, 1 and 2 release its memory while training.',
      ),
    offloadModel: z
      .boolean()
      .optional()
      .describe('ms-swift `--offload_model`: move the model to CPU while vLLM generates.'),
    offloadOptimizer: z
      .boolean()
      .optional()
      .describe('ms-swift `--offload_optimizer`: move optimizer state to CPU while vLLM generates.'),
    serverHosts: z
      .array(z.string().min(1))
      .default([])
      .describe('server mode: the `swift rollout` hosts and ports.'),
    serverPorts: z
      .array(z.number().int().positive())
      .default([])
      .describe('server mode: the `swift rollout` ports (`--vllm_server_port`).'),
  })
  .strict();

export const RecipeDistributed = z
  .object({
    nodes: z.number().int().positive().default(1).describe('Machines that train together (`NNODES`).'),
    gpusPerNode: z.number().int().positive().default(1).describe('GPUs per machine (`NPROC_PER_NODE`).'),
    cudaVisibleDevices: z
      .string()
      .regex(/^\d+(,\d+)*$/)
      .optional()
      .describe('Comma list for `CUDA_VISIBLE_DEVICES`; default `0..gpusPerNode-1`.'),
    masterAddr: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe('Address of node 0 (`MASTER_ADDR`) for multi-node runs.'),
    masterPort: z.number().int().min(1).max(65535).default(29500).describe('Port of node 0 (`MASTER_PORT`).'),
    deepspeed: z
      .string()
      .min(1)
      .default('none')
      .describe('ms-swift preset name (or a JSON config path); `none` leaves DeepSpeed off.'),
    vllm: RecipeVllm.prefault({}).describe(
      'vLLM rollouts of GRPO (colocated with training or a `swift rollout` server).',
    ),
  })
  .strict();

export const RecipeReward = z
  .object({
    name: z
      .string()
      .min(1)
      .describe('A reward-server function name (`GET /v1/rewards/functions`), e.g. `accuracy`.'),
    weight: z.number().default(1).describe('Weight of this reward in the sum (`--reward_weights`).'),
  })
  .strict();

export const RecipeRewards = z
  .object({
    serverUrl: z
      .string()
      .url()
      .default('http://127.0.0.1:8000')
      .describe('URL of `persona-forge serve`, which the ms-swift plugin calls.'),
    tokenEnv: z
      .string()
      .min(1)
      .default('PERSONA_FORGE_TOKEN')
      .describe(
        'Name of the env var holding the bearer token (never the token); forwarded as PERSONA_FORGE_TOKEN.',
      ),
    plugin: z
      .string()
      .min(1)
      .optional()
      .describe("The ms-swift plugin file; default: the package's `python/persona_forge_swift.py`."),
    functions: z
      .array(RecipeReward)
      .min(1)
      .describe('Reward functions and their weights (`--reward_funcs`, `--reward_weights`).'),
  })
  .strict();

export const RecipeEnvironment = z
  .object({
    scheduler: z
      .string()
      .min(1)
      .default('pf_retrieval')
      .describe('Multi-turn scheduler registered by the plugin.'),
    maxRetrievals: z
      .number()
      .int()
      .min(0)
      .default(3)
      .describe('SPEC.md §1: at most 3 retrievals per trajectory.'),
    maxTurns: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Model turns; default maxRetrievals + 1 (each retrieval adds one turn, then the answer).'),
  })
  .strict();

export const RecipeGrpo = z
  .object({
    numGenerations: z
      .number()
      .int()
      .min(2)
      .default(8)
      .describe('ms-swift `--num_generations`: completions per prompt (the group size).'),
    numIterations: z
      .number()
      .int()
      .positive()
      .default(1)
      .describe('ms-swift `--num_iterations`: updates per generation batch.'),
    beta: z.number().min(0).optional().describe('ms-swift `--beta`: KL penalty coefficient.'),
    epsilon: z.number().positive().optional().describe('ms-swift `--epsilon`: lower clip range.'),
    epsilonHigh: z
      .number()
      .positive()
      .optional()
      .describe('ms-swift `--epsilon_high`: upper clip range (DAPO clip-higher).'),
    lossType: z
      .enum(['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'real', 'fipo'])
      .optional()
      .describe('ms-swift `--loss_type` (`dapo`: token-level loss).'),
    advantageEstimator: z
      .enum(['grpo', 'rloo', 'reinforce_plus_plus'])
      .optional()
      .describe('ms-swift `--advantage_estimator`.'),
    dynamicSample: z
      .boolean()
      .optional()
      .describe('ms-swift `--dynamic_sample`: resample groups whose rewards are all equal (DAPO).'),
    maxResampleTimes: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('ms-swift `--max_resample_times` of dynamic sampling.'),
    overlongFilter: z
      .boolean()
      .optional()
      .describe('DAPO overlong filtering: truncated completions get no loss (`--overlong_filter`).'),
    softOverlong: z
      .object({
        cacheLength: z
          .number()
          .int()
          .positive()
          .describe('ms-swift `--soft_cache_length`: tokens before the limit over which the penalty grows.'),
        maxLength: z
          .number()
          .int()
          .positive()
          .optional()
          .describe('ms-swift `--soft_max_length`; default the completion limit.'),
        weight: z.number().default(1).describe('Weight of the `soft_overlong` reward.'),
      })
      .strict()
      .optional()
      .describe(
        "DAPO soft overlong punishment: ms-swift's `soft_overlong` reward function, added to the reward functions with `weight`. A completion longer than `maxLength - cacheLength` tokens scores -(length - (maxLength - cacheLength)) / cacheLength (0 when shorter), down to -1 at `maxLength` (default: `maxCompletionLength`).",
      ),
    maxCompletionLength: z
      .number()
      .int()
      .positive()
      .default(512)
      .describe('ms-swift `--max_completion_length`: tokens per completion.'),
    temperature: z.number().min(0).optional().describe('ms-swift `--temperature` of rollouts.'),
    topP: z.number().gt(0).max(1).optional().describe('ms-swift `--top_p` of rollouts.'),
    topK: z.number().int().optional().describe('ms-swift `--top_k` of rollouts.'),
    repetitionPenalty: z
      .number()
      .positive()
      .optional()
      .describe('ms-swift `--repetition_penalty` of rollouts.'),
    generationBatchSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--generation_batch_size`: completions generated per rollout step.'),
    stepsPerGeneration: z.number().int().positive().optional().describe('ms-swift `--steps_per_generation`.'),
    truncationStrategy: z
      .enum(['left', 'delete'])
      .optional()
      .describe('ms-swift `--truncation_strategy`: `left` cuts long prompts, `delete` drops them.'),
    logCompletions: z.boolean().optional().describe('ms-swift `--log_completions`.'),
    logEntropy: z.boolean().optional().describe('ms-swift `--log_entropy`.'),
  })
  .strict();
