import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Recipe, SwiftArgValue } from '../schemas/recipe.js';
import { assertKnownArgs, type SwiftSubcommand } from './arg-names.js';
import { type BatchLayout, resolveBatch } from './batch.js';
import { shellLine, swiftValue } from './shell.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The ms-swift plugin shipped with persona-forge (reward ORMs + the `pf_retrieval` scheduler). */
export const DEFAULT_PLUGIN_PATH = path.join(packageRoot, 'python/persona_forge_swift.py');

/**
 * Reward-server function name → the ORM name the python plugin registers in ms-swift's `orms`.
 * Unknown names map to `pf_<name>`, which the flag check cannot see: preflight asks the server.
 */
export const REWARD_ORM_NAMES: Readonly<Record<string, string>> = {
  format: 'pf_format',
  accuracy: 'pf_accuracy',
  consistency: 'pf_consistency',
  tree_ops: 'pf_tree_ops',
  persona_consistency: 'pf_persona',
  personavlm: 'pf_personavlm',
};

/** Options of {@link buildTrainCommand}; every field is optional. */
export interface BuildTrainCommandOptions {
  /** This node's rank (default 0). */
  nodeRank?: number;
  /** Rank-0 host (default `recipe.distributed.masterAddr`). */
  masterAddr?: string;
  /** `--resume_from_checkpoint` (a `…/vN-…/checkpoint-N` directory). */
  resumeFrom?: string;
  /** Replace `--model` (chaining a full SFT checkpoint or a merged model). */
  model?: string;
  /** LoRA chaining: `--adapters` and `--ref_adapters`. */
  adapters?: string;
  refAdapters?: string;
  /** Directory relative data / output paths resolve against (default `process.cwd()`). */
  cwd?: string;
  /** The plugin file passed to `--external_plugins` (default: `recipe.rewards.plugin`, else the package's). */
  pluginPath?: string;
}

/** One `swift` invocation: argv, the environment it needs, and the checked batch layout. */
export interface TrainCommand {
  subcommand: SwiftSubcommand;
  /** Starts with `swift`. */
  argv: string[];
  /** Literal environment variables this command sets. */
  env: Record<string, string>;
  /** Secret variables set from another variable at launch: target → source name (never printed). */
  envRefs: Record<string, string>;
  nodeRank: number;
  batch: BatchLayout;
  datasets: { train: string[]; val: string[] };
  /** The directory swift runs in (relative paths in the datasets resolve from it, then from ROOT_IMAGE_DIR). */
  cwd: string;
  outputDir: string;
  /** vLLM server mode: the `swift rollout` command to start on the rollout hosts first. */
  rollout?: { argv: string[]; env: Record<string, string>; envRefs: Record<string, string> };
}

const DATA_FILE = /\.(jsonl|json|parquet|arrow|csv|txt)$/i;

/**
 * The dataset files a recipe trains on: `<exportDir>/<split>/train.<format>` plus `data.train`,
 * and validation files; local files become absolute paths, hub ids pass through.
 *
 * @example
 * resolveDatasets(recipe, '/work').train; // ['/work/runs/x/export/sft/train.jsonl']
 */
export function resolveDatasets(
  recipe: Recipe,
  cwd: string = process.cwd(),
): { train: string[]; val: string[] } {
  const d = recipe.data;
  const abs = (p: string) => (DATA_FILE.test(p) ? path.resolve(cwd, p) : p);
  const split = d.split ?? (recipe.stage === 'sft' ? 'sft' : 'rl');
  const train = d.train.map(abs);
  const val = d.val.map(abs);
  if (d.exportDir !== undefined) {
    const dir = path.resolve(cwd, d.exportDir, split);
    train.unshift(path.join(dir, `train.${d.format}`));
    if (d.useTestAsVal) val.unshift(path.join(dir, `test.${d.format}`));
  }
  return { train, val };
}

/** Columns each dataset row must carry: `data.requiredColumns`, else `messages` (+ `solution` for GRPO). */
export function requiredColumns(recipe: Recipe): string[] {
  if (recipe.data.requiredColumns !== undefined) return recipe.data.requiredColumns;
  return recipe.stage === 'grpo' ? ['messages', 'solution'] : ['messages'];
}

type Flag = [name: string, value: SwiftArgValue | undefined];

function modelFlags(recipe: Recipe, options: BuildTrainCommandOptions): Flag[] {
  const m = recipe.model;
  const tunerFlag = recipe.swiftVersion === 3 ? 'train_type' : 'tuner_type';
  const lora = recipe.tuner.type === 'lora' ? recipe.tuner.lora : undefined;
  return [
    ['model', options.model ?? m.id],
    ['model_type', m.modelType],
    ['template', m.template],
    ['use_hf', m.useHf ? true : undefined],
    ['torch_dtype', m.torchDtype],
    ['attn_impl', m.attnImpl],
    [tunerFlag, recipe.tuner.type],
    ['adapters', options.adapters],
    ['ref_adapters', options.refAdapters],
    ['lora_rank', lora?.rank],
    ['lora_alpha', lora?.alpha],
    ['lora_dropout', lora?.dropout],
    ['target_modules', lora?.targetModules],
    ['freeze_vit', recipe.tuner.freezeVit],
    ['freeze_aligner', recipe.tuner.freezeAligner],
  ];
}

function trainingFlags(recipe: Recipe, batch: BatchLayout, datasets: TrainCommand['datasets']): Flag[] {
  const h = recipe.hyperparameters;
  const d = recipe.data;
  const ds = recipe.distributed.deepspeed;
  return [
    ['dataset', datasets.train],
    ['val_dataset', datasets.val.length > 0 ? datasets.val : undefined],
    ['dataset_shuffle', d.shuffle],
    ['split_dataset_ratio', d.splitDatasetRatio],
    ['dataset_num_proc', d.numProc],
    ['max_pixels', d.maxPixels],
    ['max_length', h.maxLength],
    ['per_device_train_batch_size', batch.perDeviceBatchSize],
    ['per_device_eval_batch_size', h.perDeviceEvalBatchSize],
    ['gradient_accumulation_steps', batch.gradientAccumulationSteps],
    ['learning_rate', h.learningRate],
    ['lr_scheduler_type', h.lrScheduler],
    ['lr_scheduler_kwargs', h.lrSchedulerKwargs],
    ['warmup_ratio', h.warmupRatio],
    ['max_steps', h.maxSteps],
    ['num_train_epochs', h.numTrainEpochs],
    ['max_grad_norm', h.maxGradNorm],
    ['weight_decay', h.weightDecay],
    ['seed', h.seed],
    ['gradient_checkpointing', h.gradientCheckpointing],
    ['deepspeed', ds === 'none' ? undefined : ds],
    ['dataloader_num_workers', h.dataloaderNumWorkers],
    ['eval_strategy', h.evalStrategy],
    ['eval_steps', h.evalSteps],
    ['logging_steps', h.loggingSteps],
    ['save_steps', h.saveSteps],
    ['save_total_limit', h.saveTotalLimit],
    ['save_only_model', h.saveOnlyModel],
  ];
}

function grpoFlags(recipe: Recipe, pluginPath: string): Flag[] {
  const g = recipe.grpo;
  const v = recipe.distributed.vllm;
  const server = v.enabled && v.mode === 'server';
  const { names: rewardFuncs, weights: rewardWeights } = rewardFunctions(recipe);
  const soft = g?.softOverlong;
  const envr = recipe.environment;
  return [
    ['num_generations', g?.numGenerations ?? 8],
    ['num_iterations', g?.numIterations],
    ['max_completion_length', g?.maxCompletionLength],
    ['temperature', g?.temperature],
    ['top_p', g?.topP],
    ['top_k', g?.topK],
    ['repetition_penalty', g?.repetitionPenalty],
    ['beta', g?.beta],
    ['epsilon', g?.epsilon],
    ['epsilon_high', g?.epsilonHigh],
    ['loss_type', g?.lossType],
    ['advantage_estimator', g?.advantageEstimator],
    ['dynamic_sample', g?.dynamicSample],
    ['max_resample_times', g?.maxResampleTimes],
    ['overlong_filter', g?.overlongFilter],
    ['generation_batch_size', g?.generationBatchSize],
    ['steps_per_generation', g?.stepsPerGeneration],
    ['truncation_strategy', g?.truncationStrategy],
    ['use_vllm', v.enabled],
    ['vllm_mode', v.enabled ? v.mode : undefined],
    ['vllm_gpu_memory_utilization', server ? undefined : v.gpuMemoryUtilization],
    ['vllm_tensor_parallel_size', server ? undefined : v.tensorParallelSize],
    ['vllm_max_model_len', server ? undefined : v.maxModelLen],
    ['vllm_max_num_seqs', server ? undefined : v.maxNumSeqs],
    ['vllm_enforce_eager', server ? undefined : v.enforceEager],
    ['sleep_level', server ? undefined : v.sleepLevel],
    ['offload_model', v.offloadModel],
    ['offload_optimizer', v.offloadOptimizer],
    ['vllm_server_host', server && v.serverHosts.length > 0 ? v.serverHosts : undefined],
    ['vllm_server_port', server && v.serverPorts.length > 0 ? v.serverPorts : undefined],
    ['vllm_server_pass_dataset', server && envr !== undefined ? true : undefined],
    ['external_plugins', [pluginPath]],
    ['reward_funcs', rewardFuncs],
    ['reward_weights', rewardWeights.some((w) => w !== 1) ? rewardWeights : undefined],
    ['soft_max_length', soft?.maxLength],
    ['soft_cache_length', soft?.cacheLength],
    // In server mode the scheduler runs inside `swift rollout`; the trainer learns of it from the server.
    ['multi_turn_scheduler', envr !== undefined && !server ? envr.scheduler : undefined],
    ['max_turns', envr !== undefined && !server ? maxTurns(recipe) : undefined],
    ['log_completions', g?.logCompletions],
    ['log_entropy', g?.logEntropy],
  ];
}

/**
 * The `--reward_funcs` names and their weights: the reward server's functions through the
 * plugin's ORMs, then ms-swift's built-in `soft_overlong` when `grpo.softOverlong` is set.
 */
export function rewardFunctions(recipe: Recipe): { names: string[]; weights: number[] } {
  const rewards = recipe.rewards?.functions ?? [];
  const names = rewards.map((r) => REWARD_ORM_NAMES[r.name] ?? `pf_${r.name}`);
  const weights = rewards.map((r) => r.weight);
  const soft = recipe.grpo?.softOverlong;
  if (soft !== undefined) {
    names.push('soft_overlong');
    weights.push(soft.weight);
  }
  return { names, weights };
}

/** Model turns per trajectory: `environment.maxTurns`, else maxRetrievals + 1 (SPEC.md §1: ≤ 3 retrievals). */
export function maxTurns(recipe: Recipe): number | undefined {
  const e = recipe.environment;
  return e === undefined ? undefined : (e.maxTurns ?? e.maxRetrievals + 1);
}

function toArgv(flags: Flag[], extra: Record<string, SwiftArgValue>): { names: string[]; argv: string[] } {
  const merged = new Map<string, SwiftArgValue>();
  for (const [name, value] of flags) if (value !== undefined) merged.set(name, value);
  for (const [name, value] of Object.entries(extra)) {
    if (value === null) merged.delete(name);
    else merged.set(name, value);
  }
  const argv: string[] = [];
  for (const [name, value] of merged) argv.push(`--${name}`, ...swiftValue(value));
  return { names: [...merged.keys()], argv };
}

/**
 * Recipe → the `swift sft` / `swift rlhf --rlhf_type grpo` command for one node, with its
 * environment. Every flag is checked against ms-swift's real argument names for the subcommand
 * and major version (`RecipeError` naming the flag and the closest real name); the batch
 * arithmetic is checked first (`resolveBatch`). `extraArgs` override built flags; `null` drops one.
 *
 * @example
 * const cmd = buildTrainCommand(loadRecipe('recipes/personavlm-sft.yaml'), { nodeRank: 0 });
 * cmd.argv.slice(0, 2); // ['swift', 'sft']
 */
export function buildTrainCommand(recipe: Recipe, options: BuildTrainCommandOptions = {}): TrainCommand {
  const cwd = options.cwd ?? process.cwd();
  const batch = resolveBatch(recipe);
  const datasets = resolveDatasets(recipe, cwd);
  const outputDir = path.resolve(cwd, recipe.outputDir);
  const subcommand: SwiftSubcommand = recipe.stage === 'sft' ? 'sft' : 'rlhf';
  const pluginPath =
    options.pluginPath ??
    (recipe.rewards?.plugin !== undefined ? path.resolve(cwd, recipe.rewards.plugin) : DEFAULT_PLUGIN_PATH);
  const flags: Flag[] = [
    ...(subcommand === 'rlhf' ? ([['rlhf_type', 'grpo']] as Flag[]) : []),
    ...modelFlags(recipe, options),
    ...trainingFlags(recipe, batch, datasets),
    ...(recipe.stage === 'grpo' ? grpoFlags(recipe, pluginPath) : []),
    ['output_dir', outputDir],
    ['resume_from_checkpoint', options.resumeFrom],
  ];
  const { names, argv } = toArgv(flags, recipe.extraArgs);
  assertKnownArgs(names, subcommand, recipe.swiftVersion);

  const dist = recipe.distributed;
  const nodeRank = options.nodeRank ?? 0;
  const env: Record<string, string> = {
    CUDA_VISIBLE_DEVICES:
      dist.cudaVisibleDevices ?? Array.from({ length: dist.gpusPerNode }, (_, i) => i).join(','),
    NPROC_PER_NODE: String(dist.gpusPerNode),
    NNODES: String(dist.nodes),
    NODE_RANK: String(nodeRank),
    MASTER_ADDR: options.masterAddr ?? dist.masterAddr,
    MASTER_PORT: String(dist.masterPort),
  };
  if (recipe.data.maxPixels !== undefined) env.MAX_PIXELS = String(recipe.data.maxPixels);
  // Exported rows name images relative to the export folder (`images/…`); ms-swift resolves a
  // relative path from its working directory, then from ROOT_IMAGE_DIR (template/vision_utils.py).
  if (recipe.data.exportDir !== undefined) env.ROOT_IMAGE_DIR = path.resolve(cwd, recipe.data.exportDir);
  const envRefs: Record<string, string> = {};
  if (recipe.rewards !== undefined) {
    env.PERSONA_FORGE_URL = recipe.rewards.serverUrl;
    envRefs.PERSONA_FORGE_TOKEN = recipe.rewards.tokenEnv;
  }
  // The retrieval budget is separate from max_turns (a turn may also answer), so the plugin's
  // scheduler reads it from the environment: SPEC.md §1, at most 3 retrievals per trajectory.
  if (recipe.stage === 'grpo' && recipe.environment !== undefined) {
    env.PERSONA_FORGE_MAX_RETRIEVALS = String(recipe.environment.maxRetrievals);
  }
  Object.assign(env, recipe.env);

  const command: TrainCommand = {
    subcommand,
    argv: ['swift', subcommand, ...argv],
    env,
    envRefs,
    nodeRank,
    batch,
    datasets,
    cwd: path.resolve(cwd),
    outputDir,
  };
  const v = dist.vllm;
  if (recipe.stage === 'grpo' && v.enabled && v.mode === 'server') {
    const rolloutFlags: Flag[] = [
      ['model', options.model ?? recipe.model.id],
      ['model_type', recipe.model.modelType],
      ['template', recipe.model.template],
      ['use_hf', recipe.model.useHf ? true : undefined],
      ['vllm_tensor_parallel_size', v.tensorParallelSize],
      ['vllm_gpu_memory_utilization', v.gpuMemoryUtilization],
      ['vllm_max_model_len', v.maxModelLen],
      ['port', v.serverPorts[0]],
      ['external_plugins', [pluginPath]],
      ['multi_turn_scheduler', recipe.environment?.scheduler],
      ['max_turns', maxTurns(recipe)],
      ['vllm_use_async_engine', recipe.environment !== undefined ? true : undefined],
    ];
    const r = toArgv(rolloutFlags, {});
    assertKnownArgs(r.names, 'rollout', recipe.swiftVersion);
    // The scheduler runs inside `swift rollout` here, so it needs the server, token and budget.
    const rolloutEnv: Record<string, string> = {};
    for (const key of ['MAX_PIXELS', 'ROOT_IMAGE_DIR', 'PERSONA_FORGE_URL', 'PERSONA_FORGE_MAX_RETRIEVALS']) {
      if (env[key] !== undefined) rolloutEnv[key] = env[key];
    }
    command.rollout = { argv: ['swift', 'rollout', ...r.argv], env: rolloutEnv, envRefs };
  }
  return command;
}

/**
 * The copy-pasteable shell line for a command (`K=V … swift …`; secrets as `"$SOURCE"`).
 *
 * @example
 * formatCommandLine(cmd); // 'CUDA_VISIBLE_DEVICES=0,1 … swift sft --model …'
 */
export function formatCommandLine(command: Pick<TrainCommand, 'env' | 'argv' | 'envRefs'>): string {
  return shellLine(command.env, command.argv, command.envRefs);
}

/**
 * The environment a launched `swift` process gets: the parent's, the command's literals, and
 * each secret copied from its source variable when set.
 */
export function launchEnv(
  command: Pick<TrainCommand, 'env' | 'envRefs'>,
  parent: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined) out[k] = v;
  Object.assign(out, command.env);
  for (const [target, source] of Object.entries(command.envRefs)) {
    const value = parent[source];
    if (value !== undefined) out[target] = value;
  }
  return out;
}
