/** Scale-out: `--shard auto`, Slurm job arrays and training jobs, Kubernetes manifests, status. */
export {
  type K8sOptions,
  type K8sRunOptions,
  type K8sTrainOptions,
  k8sRunManifests,
  k8sTrainManifest,
  LLM_SECRET,
  REWARD_SECRET,
  type RequiredSecret,
  requiredSecrets,
  secretCommand,
  writeManifests,
} from './k8s.js';
export { resolveAutoShard, type ShardSpec } from './shard.js';
export {
  readSlurmJobs,
  type SlurmJobsFile,
  type SlurmResumeResult,
  type SlurmRunOptions,
  type SlurmRunResult,
  slurmResume,
  slurmRun,
} from './slurm/run.js';
export { isActive, jobStates, type SlurmCommands, sbatch } from './slurm/sched.js';
export {
  PF_BIN,
  renderRunScripts,
  renderTrainScript,
  type SlurmResources,
  withDependency,
} from './slurm/scripts.js';
export {
  requeueOnTimeLimit,
  type SlurmTrainJob,
  type SlurmTrainOptions,
  slurmTrain,
  slurmTrainChain,
  trainRlAfterSft,
} from './slurm/train.js';
export { formatRunStatus, type RunStatus, runStatus, type ShardStatus } from './status.js';
