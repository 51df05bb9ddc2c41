/**
 * The plan stage: per-user ground truth (preferences with validity intervals and drift,
 * personality trajectory, people, goals, habits, visual concepts, sessions with noise and images,
 * evidence slots bound to (session, round), QA targets). Deterministic for (seed, userId); no LLM
 * except the persona enrichment in `planStage`.
 *
 * Defaults and their sources live in `src/schemas/plan-config.ts` (`PlanSettings`, profile presets).
 */
export { allocateRounds, type ContentKind, multimodalCount, type RoundRoles } from './allocate.js';
export { type BuildUserPlanInput, type BuildUserPlanOptions, buildUserPlan } from './build-user-plan.js';
export { PREFERENCE_CATALOGUE, type SlotSpec } from './catalogue/preference-catalogue.js';
export { findUserPlan } from './find-user-plan.js';
export { formatPlanTimeline } from './format-timeline.js';
export { baseSlot, createPreferencePool, fitsPersona, type PreferencePool } from './preference-pool.js';
export { loadRunImagePool, PLAN_IMAGE_DIR, planStage } from './stage.js';
export { type PlanState, stateAt } from './state-at.js';
export { describePreference, preferenceAnswer } from './statements.js';
export { buildTimeline, type RoundRef, type Timeline } from './timeline.js';
