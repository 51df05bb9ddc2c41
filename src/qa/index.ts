/**
 * QA targets derived from a plan: Persona-MME's 14 tasks, PersonaMem's 7 query types and LoCoMo's
 * 5 categories, each asked at a time point with the answer the plan implies at that time, the
 * evidence slots before it and, for multiple choice, three distractors wrong at that time.
 */
export { type BuildQaOptions, buildQaTargets } from './build-qa.js';
export { explanationShares } from './explanation-shares.js';
export { GOAL_OUTCOME_ANSWERS, GOAL_STATUS_ANSWERS } from './goal-kernels.js';
export { EXPLANATION_LEVELS, explanationLevel, relationshipTrend, TRAIT_STYLES } from './life-kernels.js';
export { formatDate } from './locomo-kernels.js';
export { chainText, slotTopic } from './preference-kernels.js';
export {
  allocateTasks,
  LOCOMO_TASKS,
  PERSONA_MME_TASKS,
  PERSONAMEM_TASKS,
  PERSONAMEM_TOPICS,
  type TaskSpec,
} from './tasks.js';
