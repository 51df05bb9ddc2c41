/**
 * Realization: plans → dialogues (offline template grammar or an LLM, chunk by chunk from a
 * compact state, checked on write), behavior logs, VitaBench interactions, M²A concept sessions.
 */
export { type GenerateBehaviorsOptions, generateBehaviors } from './behaviors.js';
export { checkChunkSlots, lexicalSlotCheck, type SlotCheck, SlotVerdict } from './check.js';
export * from './concepts/index.js';
export { createGrammar, duplicateSentenceRate, type Grammar, sentence, splitSentences } from './grammar.js';
export {
  type SessionsForInsertion,
  type SessionsFromPlanOptions,
  sessionsForEachUser,
  sessionsForInsertion,
} from './insert-sessions.js';
export { buildChunkPrompt, ChunkOutput, createLlmRealizer, type LlmRealizerOptions } from './llm-realizer.js';
export {
  type MeaningExpectation,
  type MeaningReading,
  meaningProblems,
  readMeaning,
  slotExpectations,
  type Verdict,
} from './meaning/index.js';
export { createOfflineRealizer, type OfflineRealizerOptions } from './offline/realizer.js';
export { styleFor, type UserStyle } from './offline/style.js';
export { createPlanView, type PlanView } from './plan-view.js';
export {
  normalizeImagePlaceholders,
  type RealizeDialogueOptions,
  type RealizeStats,
  realizeDialogue,
} from './realize-dialogue.js';
export type { ChunkRequest, ChunkRound, CompactState, RealizedRound, Realizer } from './realizer.js';
export { synthStage } from './stage.js';
export { toVitaBenchInteractions, type VitaBenchInteraction } from './vitabench.js';
