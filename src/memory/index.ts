/**
 * Reference memory engines (SPEC.md §1–4): PersonaVLM memory with PEM, PersonaTree operations,
 * the M²A dual-layer store, VitaBench's memory interface, and hybrid retrieval.
 */

export {
  type AddMemoryInput,
  createDualLayerMemory,
  type DualLayerEntry,
  type DualLayerHit,
  DualLayerMemory,
  type EvidenceRange,
  type RawMessage,
  type UpdateRecord,
} from './dual-layer/dual-layer-memory.js';
export { indexPlan, type PlanIndex, preferenceClause } from './gold/plan-index.js';
export {
  formatCoreMemory,
  formatEpisodes,
  formatPersonalityScores,
  formatProcedural,
  formatSemanticDecision,
  parseKeyValueLines,
  type SemanticDecision,
} from './gold/targets.js';
export { goldTreeOps, initialTreeValues, preferencePath } from './gold/tree-gold.js';
export { describePersonality, type PemUpdate, pemLambda, updatePersonality } from './persona/pem.js';
export {
  type AnyEntry,
  createPersonaMemory,
  type MemoryConfigInput,
  PersonaMemory,
  type PersonaMemoryOptions,
} from './persona/persona-memory.js';
export { type ReplayOptions, replayMemory } from './replay.js';
export { Bm25Index, type Bm25Options, type ScoredId } from './retrieval/bm25.js';
export { DenseIndex, type DenseIndexOptions } from './retrieval/dense.js';
export { formatMemoryBlock, formatMinute } from './retrieval/format-block.js';
export {
  HybridIndex,
  type HybridIndexOptions,
  type HybridSearchOptions,
  type RetrievalMode,
} from './retrieval/hybrid-index.js';
export { createOfflineEmbedder } from './retrieval/offline-embedder.js';
export { drawTopK, embedderFromLlm, retrieve } from './retrieval/retrieve.js';
export { fuseRrf } from './retrieval/rrf.js';
export { createTimeWindow, inWindow, parseRetrieveTime, type TimeWindow } from './retrieval/time-window.js';
export { tokenize } from './retrieval/tokenize.js';
export { latestSnapshotAt, loadMemorySnapshot, MEMORY_OUTPUT } from './snapshot.js';
export { memoryStage } from './stage.js';
export { buildTrajectory, type TrajectoryOptions } from './trajectory.js';
export { compressValue } from './tree/compress.js';
export { formatTreeOp, formatTreeOps, parseOpLine, parseTreeOps } from './tree/parse-ops.js';
export {
  applyTreeOps,
  type CreatePersonaTreeOptions,
  createPersonaTree,
  isPermittedLeaf,
  type PersonaTree,
  renderPersonaTree,
  type TreePolicy,
  type TreeStep,
} from './tree/persona-tree.js';
export {
  DEFAULT_TREE_SCHEMA_PATH,
  loadTreeSchema,
  parseTreeSchema,
  type TreeSchema,
  TreeSchemaFile,
} from './tree/schema.js';
export { type ScoreTreeOpsOptions, scoreTreeOps, type TreeOpsScore } from './tree/score-ops.js';
export { treeValuesAt, treeValuesAtTime } from './tree/versions.js';
export * from './types.js';
export { describeBehavior, interactionsBetween } from './vita/interactions.js';
export {
  chunkByTokens,
  createRagMemory,
  createRewriteMemory,
  retrieveVitaMemory,
  updateVitaMemory,
  type VitaInteraction,
  type VitaMemory,
} from './vita/vita-memory.js';
