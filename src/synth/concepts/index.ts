export {
  conceptConversationForPlan,
  type GenerateConceptOptions,
  generateConceptConversation,
  sampleConceptGroup,
} from './generate.js';
export { generateConceptsOffline } from './offline.js';
export {
  CONCEPT_QA_CATEGORY,
  type ConceptConversation,
  ConceptGeneration,
  ConceptMember,
  ConceptQa,
  ConceptTurn,
} from './schema.js';
export { conceptConversationToSessions } from './to-sessions.js';
export { expectedQaCounts, validateConceptGeneration } from './validate.js';
