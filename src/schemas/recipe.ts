import { z } from 'zod';

/**
 * A training recipe: everything `persona-forge train` needs to build one ms-swift command
 * (`swift sft` or `swift rlhf --rlhf_type grpo`). Keys are camelCase; `extraArgs` takes raw
 * ms-swift argument names (snake_case) and is still checked against the real name lists.
 * Every hyperparameter default is a documented ms-swift default or a SPEC.md number; the shipped
 * recipes in `recipes/` set the paper values explicitly.
 */

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
/** A raw ms-swift argument value: booleans → `true|false`, lists → space-separated, dicts → JSON. */
export const SwiftArgValue = z.union([Scalar, z.array(Scalar), z.record(z.string(), z.unknown()), z.null()]);
export type SwiftArgValue = z.infer<typeof SwiftArgValue>;

export const RecipeModel = z
  .object({
    id: z.string().min(1).describe('Hub id or local path passed as `--model`.'),
    modelType: z
      .string()
      .min(1)
      .optional()
      .describe('ms-swift `--model_type`; needed when ms-swift cannot infer it from the model id.'),
    template: z
      .string()
      .min(1)
      .optional()
      .describe('ms-swift 4.x decoupled templates from model types (e.g. `qwen3_nothinking` is a template).'),
    torchDtype: z
      .enum(['bfloat16', 'float16', 'float32'])
      .default('bfloat16')
      .describe('ms-swift `--torch_dtype`.'),
    useHf: z
      .boolean()
      .default(true)
      .describe(
        "`--use_hf true`: resolve `id` on Hugging Face instead of ModelScope (ms-swift's default hub).",
      ),
    attnImpl: z.string().min(1).optional().describe('ms-swift `--attn_impl`, e.g. `flash_attn` or `sdpa`.'),
    tokenizer: z
      .string()
      .min(1)
      .optional()
      .describe(
        'The tokenizer the preflight counts tokens with (`loadModelTokenizer`): a local model folder holding tokenizer.json, or a named one (`qwen3`, `qwen2_5_vl`). Default: `id` when it is a local folder with a tokenizer.json, else the named tokenizer of `modelType`.',
      ),
  })
  .strict();

export const RecipeData = z
  .object({
    exportDir: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A persona-forge export directory; the dataset is `<exportDir>/<split>/train.<format>` (and `test.<format>` as the validation set when `useTestAsVal`).',
      ),
    split: z
      .enum(['sft', 'rl'])
      .optional()
      .describe('Which export split to read; defaults to `sft` for SFT recipes and `rl` for GRPO ones.'),
    format: z
      .enum(['jsonl', 'parquet'])
      .default('jsonl')
      .describe('Which export files are trained on: `jsonl` or `parquet`.'),
    useTestAsVal: z
      .boolean()
      .default(false)
      .describe("Use the export's test split as the validation set (`--val_dataset`)."),
    train: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Explicit dataset files (or ms-swift dataset ids); used instead of / in addition to exportDir.',
      ),
    val: z
      .array(z.string().min(1))
      .default([])
      .describe('More validation files (`--val_dataset`), relative to where you launch.'),
    requiredColumns: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Columns every row must carry. Defaults: `messages` (+ the reward functions' columns for GRPO).",
      ),
    maxPixels: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Cap on image pixels (`--max_pixels` and `MAX_PIXELS`).'),
    shuffle: z.boolean().optional().describe('ms-swift `--dataset_shuffle`.'),
    splitDatasetRatio: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('ms-swift `--split_dataset_ratio`: share of the training data held out for validation.'),
    numProc: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--dataset_num_proc`: processes that preprocess the dataset.'),
  })
  .strict()
  .refine((d) => d.exportDir !== undefined || d.train.length > 0, {
    message: 'give data.exportDir (a persona-forge export directory) or data.train (dataset files)',
  });

export const RecipeTuner = z
  .object({
    type: z
      .enum(['full', 'lora'])
      .default('full')
      .describe('`full` fine-tuning or `lora` (ms-swift 3 `--train_type`, 4 `--tuner_type`).'),
    lora: z
      .object({
        rank: z.number().int().positive().default(8).describe('ms-swift `--lora_rank`.'),
        alpha: z.number().int().positive().default(32).describe('ms-swift `--lora_alpha`.'),
        dropout: z.number().min(0).max(1).default(0.05).describe('ms-swift `--lora_dropout`.'),
        targetModules: z
          .array(z.string().min(1))
          .default(['all-linear'])
          .describe('ms-swift `--target_modules` (`all-linear`: every linear layer).'),
      })
      .strict()
      .prefault({})
      .describe('LoRA settings, used when `type: lora`.'),
    mergeBeforeRl: z
      .boolean()
      .default(false)
      .describe('In `train chain`, merge the SFT adapters (`swift export --merge_lora true`) before RL.'),
    freezeVit: z
      .boolean()
      .optional()
      .describe(
        '`--freeze_vit` / `--freeze_aligner`: keep the vision tower / the vision-language merger frozen. ms-swift defaults both to true (tuner_args.py), even for `type: full`.',
      ),
    freezeAligner: z
      .boolean()
      .optional()
      .describe('ms-swift `--freeze_aligner`: keep the vision-language merger frozen.'),
  })
  .strict();

export const RecipeHyperparameters = z
  .object({
    globalBatchSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Samples (SFT) or completions (GRPO) per optimizer step over all GPUs and nodes.'),
    perDeviceBatchSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--per_device_train_batch_size`; derived from `globalBatchSize` when unset.'),
    gradientAccumulationSteps: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--gradient_accumulation_steps`; derived from `globalBatchSize` when unset.'),
    perDeviceEvalBatchSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--per_device_eval_batch_size`.'),
    learningRate: z.number().positive().describe('ms-swift `--learning_rate`.'),
    lrScheduler: z
      .string()
      .min(1)
      .default('cosine')
      .describe('ms-swift `--lr_scheduler_type`, e.g. `cosine`.'),
    lrSchedulerKwargs: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('ms-swift `--lr_scheduler_kwargs`, e.g. `{ min_lr: 1e-7 }` for `cosine_with_min_lr`.'),
    warmupRatio: z
      .number()
      .min(0)
      .lt(1)
      .optional()
      .describe('ms-swift `--warmup_ratio`: share of the steps spent warming the learning rate up.'),
    maxSteps: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--max_steps`: training stops after this many optimizer steps.'),
    numTrainEpochs: z.number().positive().optional().describe('ms-swift `--num_train_epochs`.'),
    maxLength: z
      .number()
      .int()
      .positive()
      .describe('ms-swift `--max_length`: tokens per row; longer rows are handled by `truncation_strategy`.'),
    maxGradNorm: z.number().positive().optional().describe('ms-swift `--max_grad_norm`: gradient clipping.'),
    weightDecay: z.number().min(0).optional().describe('ms-swift `--weight_decay`.'),
    seed: z.number().int().min(0).default(42).describe('ms-swift `--seed`.'),
    gradientCheckpointing: z.boolean().optional().describe('ms-swift `--gradient_checkpointing`.'),
    saveSteps: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--save_steps`: a checkpoint every this many steps.'),
    saveTotalLimit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('ms-swift `--save_total_limit`: checkpoints kept.'),
    saveOnlyModel: z
      .boolean()
      .optional()
      .describe('ms-swift `--save_only_model`: checkpoints without optimizer state (cannot resume).'),
    loggingSteps: z.number().int().positive().default(5).describe('ms-swift `--logging_steps`.'),
    evalStrategy: z
      .enum(['no', 'steps', 'epoch'])
      .optional()
      .describe('ms-swift `--eval_strategy`: `no`, `steps` or `epoch`.'),
    evalSteps: z.number().int().positive().optional().describe('ms-swift `--eval_steps`.'),
    dataloaderNumWorkers: z.number().int().min(0).optional().describe('ms-swift `--dataloader_num_workers`.'),
  })
  .strict();

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

export const RecipePreflight = z
  .object({
    minFreeDiskGb: z
      .number()
      .min(0)
      .default(50)
      .describe(
        "Free space the output directory's file system needs (checkpoints of a 7B full fine-tune are ~15 GB each).",
      ),
    rewardServerTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(3000)
      .describe('Budget for each reward-server request.'),
  })
  .strict();

/**
 * How to measure the trained checkpoint: `train` prints the serve command (`swift deploy`, real
 * ms-swift argument names) and the `persona-forge eval` command when the stage finishes.
 */
export const RecipeEval = z
  .object({
    set: z
      .string()
      .min(1)
      .describe("An eval set: a run's `export/eval` folder, LoCoMo, PersonaMem or Persona-MME files."),
    strategy: z
      .enum(['full', 'rag', 'agent'])
      .default('agent')
      .describe(
        '`persona-forge eval --strategy`: `full` (the newest history that fits the context), `rag` (top memories of the hybrid retriever) or `agent` (the PersonaVLM think / retrieve / answer loop).',
      ),
    context: z
      .string()
      .default('32k')
      .describe(
        '`persona-forge eval --context`: the token budget of the history, `32k`, `128k` or a number.',
      ),
    port: z
      .number()
      .int()
      .min(1)
      .max(65535)
      .default(8001)
      .describe('Port `swift deploy` serves the checkpoint on.'),
  })
  .strict();
export type RecipeEval = z.infer<typeof RecipeEval>;

export const Recipe = z
  .object({
    name: z.string().min(1).describe('Name of the recipe, used in output folders and printed commands.'),
    description: z.string().optional().describe('One line on what this recipe trains.'),
    stage: z
      .enum(['sft', 'grpo'])
      .describe('`sft` → `swift sft`; `grpo` → `swift rlhf --rlhf_type grpo` (DAPO is GRPO + flags).'),
    swiftVersion: z
      .union([z.literal(3), z.literal(4)])
      .default(4)
      .describe('ms-swift major version on the GPU nodes: 3 emits `--train_type`, 4 `--tuner_type`.'),
    model: RecipeModel.describe('The model trained: hub id or local path, dtype, template.'),
    data: RecipeData.describe('Which exported files are trained on and how ms-swift reads them.'),
    tuner: RecipeTuner.prefault({}).describe('Full fine-tuning or LoRA, and what stays frozen.'),
    hyperparameters: RecipeHyperparameters.describe('Optimisation settings passed to ms-swift.'),
    distributed: RecipeDistributed.prefault({}).describe('GPUs, nodes, DeepSpeed and vLLM.'),
    grpo: RecipeGrpo.optional().describe('GRPO / DAPO settings (`stage: grpo`).'),
    rewards: RecipeRewards.optional().describe(
      'The reward server and reward functions of GRPO (`stage: grpo`).',
    ),
    environment: RecipeEnvironment.optional().describe(
      'Multi-turn rollouts with the persona-forge retrieval scheduler.',
    ),
    outputDir: z.string().min(1).describe('ms-swift `--output_dir`.'),
    preflight: RecipePreflight.prefault({}).describe(
      'Limits of the checks `train` runs before it launches (free disk, reward-server timeout).',
    ),
    eval: RecipeEval.optional().describe(
      'Optional: the eval set that measures the checkpoint (printed commands, see RecipeEval).',
    ),
    env: z
      .record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string())
      .default({})
      .describe('Extra environment variables for every node (e.g. PYTORCH_CUDA_ALLOC_CONF).'),
    extraArgs: z
      .record(z.string().regex(/^[a-z_][a-z0-9_]*$/), SwiftArgValue)
      .default({})
      .describe('Raw ms-swift arguments (snake_case names); checked against the real names like the rest.'),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.stage === 'grpo' && r.rewards === undefined) {
      ctx.addIssue({ code: 'custom', path: ['rewards'], message: 'a grpo recipe needs rewards.functions' });
    }
    if (r.stage === 'sft' && (r.grpo !== undefined || r.environment !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['stage'],
        message: 'grpo/environment sections need stage: grpo',
      });
    }
    const soft = r.grpo?.softOverlong;
    if (soft !== undefined && r.grpo !== undefined) {
      const max = soft.maxLength ?? r.grpo.maxCompletionLength;
      if (soft.cacheLength >= max) {
        ctx.addIssue({
          code: 'custom',
          path: ['grpo', 'softOverlong', 'cacheLength'],
          message: `cacheLength (${soft.cacheLength}) must be below the soft maximum length (${max}); ms-swift asserts soft_cache_length < soft_max_length`,
        });
      }
    }
    const h = r.hyperparameters;
    if (h.maxSteps === undefined && h.numTrainEpochs === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['hyperparameters'],
        message: 'set hyperparameters.maxSteps or hyperparameters.numTrainEpochs',
      });
    }
  });
export type Recipe = z.infer<typeof Recipe>;
export type RecipeInput = z.input<typeof Recipe>;

/**
 * The recipe JSON Schema (draft 2020-12), for editors and `persona-forge schema`.
 *
 * @example
 * writeFileSync('recipe.schema.json', JSON.stringify(recipeJsonSchema(), null, 2));
 */
export function recipeJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(Recipe, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
