/**
 * Training launcher: ms-swift recipes → checked `swift sft` / `swift rlhf --rlhf_type grpo`
 * commands, preflight, launch with progress, SFT → RL chaining, resume and multi-node.
 */
export {
  ARG_NAMES_FILE,
  allowedArgs,
  assertKnownArgs,
  closestArg,
  loadArgNames,
  type SwiftMajor,
  type SwiftSubcommand,
} from './arg-names.js';
export { type BatchLayout, resolveBatch } from './batch.js';
export {
  type ChainResult,
  type ChainTrainingOptions,
  chainTraining,
  type Handoff,
  handoffOptions,
  planChain,
  planHandoff,
} from './chain.js';
export {
  type BuildTrainCommandOptions,
  buildTrainCommand,
  DEFAULT_PLUGIN_PATH,
  formatCommandLine,
  launchEnv,
  maxTurns,
  REWARD_ORM_NAMES,
  requiredColumns,
  resolveDatasets,
  rewardFunctions,
  type TrainCommand,
} from './command.js';
export { formatDryRun } from './dry-run.js';
export { type FollowRunHandlers, followRun, type RunFollower } from './follow.js';
export {
  type LaunchTrainingOptions,
  launchTraining,
  RUN_RECORD_FILE,
  type RunRecord,
  type TrainingResult,
} from './launch.js';
export { type LoadRecipeOptions, loadRecipe } from './load-recipe.js';
export {
  type LaunchOverSshOptions,
  launchOverSsh,
  type NodePlan,
  type PlanNodesOptions,
  parseHostfile,
  planNodes,
  readHostfile,
} from './multinode.js';
export {
  assertPreflight,
  formatPreflight,
  type PreflightCheck,
  type PreflightOptions,
  type PreflightReport,
  runPreflight,
  which,
} from './preflight.js';
export { execaRunProcess, type RunningProcess, type RunProcess, type RunProcessOptions } from './process.js';
export { type FinalEvent, formatProgress, type ProgressEvent, parseLogLine } from './progress.js';
export { createConsoleReporter, type ProgressReporter } from './reporter.js';
export { type Checkpoint, latestCheckpoint, listCheckpoints, listRunDirs, type RunDir } from './run-dir.js';
export { shellLine, shellQuote, swiftValue } from './shell.js';
export {
  checkTokenLengths,
  measureTokenLengths,
  type TokenCheck,
  type TokenLengths,
  tokenizerSpec,
} from './token-lengths.js';
export { type TrainCliOptions, trainChainCommand, trainCommand } from './train.js';
export {
  isMultimodal,
  summarizeTraining,
  type TrainingSummary,
  type TruncationStrategy,
  truncationEffect,
  truncationStrategy,
} from './training-summary.js';
