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
    modelType: z.string().min(1).optional(),
    template: z
      .string()
      .min(1)
      .optional()
      .describe('ms-swift 4.x decoupled templates from model types (e.g. `qwen3_nothinking` is a template).'),
    torchDtype: z.enum(['bfloat16', 'float16', 'float32']).default('bfloat16'),
    useHf: z
      .boolean()
      .default(true)
      .describe(
        "`--use_hf true`: resolve `id` on Hugging Face instead of ModelScope (ms-swift's default hub).",
      ),
    attnImpl: z.string().min(1).optional(),
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
    format: z.enum(['jsonl', 'parquet']).default('jsonl'),
    useTestAsVal: z.boolean().default(false),
    train: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Explicit dataset files (or ms-swift dataset ids); used instead of / in addition to exportDir.',
      ),
    val: z.array(z.string().min(1)).default([]),
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
    shuffle: z.boolean().optional(),
    splitDatasetRatio: z.number().min(0).max(1).optional(),
    numProc: z.number().int().positive().optional(),
  })
  .strict()
  .refine((d) => d.exportDir !== undefined || d.train.length > 0, {
    message: 'give data.exportDir (a persona-forge export directory) or data.train (dataset files)',
  });

export const RecipeTuner = z
  .object({
    type: z.enum(['full', 'lora']).default('full'),
    lora: z
      .object({
        rank: z.number().int().positive().default(8),
        alpha: z.number().int().positive().default(32),
        dropout: z.number().min(0).max(1).default(0.05),
        targetModules: z.array(z.string().min(1)).default(['all-linear']),
      })
      .strict()
      .prefault({}),
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
    freezeAligner: z.boolean().optional(),
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
    perDeviceBatchSize: z.number().int().positive().optional(),
    gradientAccumulationSteps: z.number().int().positive().optional(),
    perDeviceEvalBatchSize: z.number().int().positive().optional(),
    learningRate: z.number().positive(),
    lrScheduler: z.string().min(1).default('cosine'),
    lrSchedulerKwargs: z.record(z.string(), z.unknown()).optional(),
    warmupRatio: z.number().min(0).lt(1).optional(),
    maxSteps: z.number().int().positive().optional(),
    numTrainEpochs: z.number().positive().optional(),
    maxLength: z.number().int().positive(),
    maxGradNorm: z.number().positive().optional(),
    weightDecay: z.number().min(0).optional(),
    seed: z.number().int().min(0).default(42),
    gradientCheckpointing: z.boolean().optional(),
    saveSteps: z.number().int().positive().optional(),
    saveTotalLimit: z.number().int().positive().optional(),
    saveOnlyModel: z.boolean().optional(),
    loggingSteps: z.number().int().positive().default(5),
    evalStrategy: z.enum(['no', 'steps', 'epoch']).optional(),
    evalSteps: z.number().int().positive().optional(),
    dataloaderNumWorkers: z.number().int().min(0).optional(),
  })
  .strict();

export const RecipeVllm = z
  .object({
    enabled: z.boolean().default(true),
    mode: z
      .enum(['colocate', 'server'])
      .default('colocate')
      .describe('ms-swift has no default mode: `use_vllm true` without `vllm_mode` is an error.'),
    gpuMemoryUtilization: z.number().gt(0).max(1).optional(),
    tensorParallelSize: z.number().int().positive().optional(),
    maxModelLen: z.number().int().positive().optional(),
    maxNumSeqs: z.number().int().positive().optional(),
    enforceEager: z.boolean().optional(),
    sleepLevel: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    offloadModel: z.boolean().optional(),
    offloadOptimizer: z.boolean().optional(),
    serverHosts: z
      .array(z.string().min(1))
      .default([])
      .describe('server mode: the `swift rollout` hosts and ports.'),
    serverPorts: z.array(z.number().int().positive()).default([]),
  })
  .strict();

export const RecipeDistributed = z
  .object({
    nodes: z.number().int().positive().default(1),
    gpusPerNode: z.number().int().positive().default(1),
    cudaVisibleDevices: z
      .string()
      .regex(/^\d+(,\d+)*$/)
      .optional()
      .describe('Comma list for `CUDA_VISIBLE_DEVICES`; default `0..gpusPerNode-1`.'),
    masterAddr: z.string().min(1).default('127.0.0.1'),
    masterPort: z.number().int().min(1).max(65535).default(29500),
    deepspeed: z
      .string()
      .min(1)
      .default('none')
      .describe('ms-swift preset name (or a JSON config path); `none` leaves DeepSpeed off.'),
    vllm: RecipeVllm.prefault({}),
  })
  .strict();

export const RecipeReward = z
  .object({
    name: z
      .string()
      .min(1)
      .describe('A reward-server function name (`GET /v1/rewards/functions`), e.g. `accuracy`.'),
    weight: z.number().default(1),
  })
  .strict();

export const RecipeRewards = z
  .object({
    serverUrl: z.string().url().default('http://127.0.0.1:8000'),
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
    functions: z.array(RecipeReward).min(1),
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
    numGenerations: z.number().int().min(2).default(8),
    numIterations: z.number().int().positive().default(1),
    beta: z.number().min(0).optional(),
    epsilon: z.number().positive().optional(),
    epsilonHigh: z.number().positive().optional(),
    lossType: z.enum(['grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'real', 'fipo']).optional(),
    advantageEstimator: z.enum(['grpo', 'rloo', 'reinforce_plus_plus']).optional(),
    dynamicSample: z.boolean().optional(),
    maxResampleTimes: z.number().int().min(0).optional(),
    overlongFilter: z
      .boolean()
      .optional()
      .describe('DAPO overlong filtering: truncated completions get no loss (`--overlong_filter`).'),
    softOverlong: z
      .object({
        cacheLength: z.number().int().positive(),
        maxLength: z.number().int().positive().optional(),
        weight: z.number().default(1),
      })
      .strict()
      .optional()
      .describe(
        "DAPO soft overlong punishment: ms-swift's `soft_overlong` reward function, added to the reward functions with `weight`. A completion longer than `maxLength - cacheLength` tokens scores -(length - (maxLength - cacheLength)) / cacheLength (0 when shorter), down to -1 at `maxLength` (default: `maxCompletionLength`).",
      ),
    maxCompletionLength: z.number().int().positive().default(512),
    temperature: z.number().min(0).optional(),
    topP: z.number().gt(0).max(1).optional(),
    topK: z.number().int().optional(),
    repetitionPenalty: z.number().positive().optional(),
    generationBatchSize: z.number().int().positive().optional(),
    stepsPerGeneration: z.number().int().positive().optional(),
    truncationStrategy: z.enum(['left', 'delete']).optional(),
    logCompletions: z.boolean().optional(),
    logEntropy: z.boolean().optional(),
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
    strategy: z.enum(['full', 'rag', 'agent']).default('agent'),
    context: z.string().default('32k'),
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
    name: z.string().min(1),
    description: z.string().optional(),
    stage: z
      .enum(['sft', 'grpo'])
      .describe('`sft` → `swift sft`; `grpo` → `swift rlhf --rlhf_type grpo` (DAPO is GRPO + flags).'),
    swiftVersion: z
      .union([z.literal(3), z.literal(4)])
      .default(4)
      .describe('ms-swift major version on the GPU nodes: 3 emits `--train_type`, 4 `--tuner_type`.'),
    model: RecipeModel,
    data: RecipeData,
    tuner: RecipeTuner.prefault({}),
    hyperparameters: RecipeHyperparameters,
    distributed: RecipeDistributed.prefault({}),
    grpo: RecipeGrpo.optional(),
    rewards: RecipeRewards.optional(),
    environment: RecipeEnvironment.optional(),
    outputDir: z.string().min(1),
    preflight: RecipePreflight.prefault({}),
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
