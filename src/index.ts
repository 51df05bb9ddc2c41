/**
 * persona-forge's library API. The CLI and the HTTP server are thin layers over these calls.
 *
 * @example
 * import { runPipelineFile } from 'persona-forge';
 * await runPipelineFile('pipelines/quickstart.yaml', { outDir: 'out/quickstart' });
 */
export {
  configJsonSchema,
  loadPipeline,
  loadYamlConfig,
  shippedJsonSchemas,
  writeJsonSchemas,
} from './config/index.js';
export { startFakeLlmServer } from './dev/fake-llm/index.js';
export * from './errors/index.js';
export { pushToHub, renderDatasetCard, writeParquetFile } from './export/index.js';
export {
  formatLocomoTime,
  interpolateEachConversation,
  interpolateIntoHost,
  parseLocomoTime,
} from './interpolate/index.js';
export { applyLlmOverride, createLlmClient, estimateCost } from './llm/index.js';
export type { ChatMessage, LlmClient, StructuredRequest } from './llm/types.js';
export {
  applyTreeOps,
  createDualLayerMemory,
  createPersonaMemory,
  createPersonaTree,
  formatMemoryBlock,
  loadMemorySnapshot,
  parseTreeOps,
  replayMemory,
  retrieve,
  scoreTreeOps,
} from './memory/index.js';
export { enrichPersona, samplePersonas } from './persona/index.js';
export { estimatePipeline } from './pipeline/estimate.js';
export { defaultStages } from './pipeline/registry.js';
export { mergeAndFinish, readRunConfig, runPipelineFile, runStagesInDir } from './pipeline/run-file.js';
export { runPipeline } from './pipeline/runner.js';
export type { MapStage, ReduceStage, StageContext } from './pipeline/types.js';
export { buildUserPlan, findUserPlan, formatPlanTimeline, stateAt } from './plan/index.js';
export { buildQaTargets } from './qa/index.js';
export { collectReportData, renderReport } from './report/index.js';
export { createRewardApp, rescoreRollouts, scoreRewards, startRewardServer } from './reward/index.js';
export * from './schemas/index.js';
export {
  createLlmRealizer,
  createOfflineRealizer,
  generateBehaviors,
  type MeaningExpectation,
  type MeaningReading,
  meaningProblems,
  readMeaning,
  sessionsForEachUser,
  sessionsForInsertion,
  toVitaBenchInteractions,
} from './synth/index.js';
export { buildTrainCommand, chainTraining, launchTraining, loadRecipe, runPreflight } from './train/index.js';
export { createRng } from './util/rng.js';
export { validateCorpus } from './validate/index.js';
