import { z } from 'zod';
import { RecipeDistributed, RecipeEnvironment, RecipeGrpo, RecipeRewards } from './recipe-rl.js';

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

export {
  RecipeDistributed,
  RecipeEnvironment,
  RecipeGrpo,
  RecipeReward,
  RecipeRewards,
  RecipeVllm,
} from './recipe-rl.js';

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
