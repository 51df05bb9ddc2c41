import type { RuleCheck } from '../types.js';
import { chronologyCheck } from './chronology.js';
import { correctionScopeCheck } from './correction-scope.js';
import { dietCoherenceCheck } from './diet-coherence.js';
import { driftCausesCheck } from './drift-causes.js';
import { driftMeaningCheck } from './drift-meaning.js';
import { episodicCoverageCheck } from './episodic-coverage.js';
import { futureInfoCheck } from './future-info.js';
import { goldInPromptCheck } from './gold-in-prompt.js';
import { idsCheck } from './ids.js';
import { imageRefsCheck } from './image-refs.js';
import { m2aSessionsCheck } from './m2a-sessions.js';
import { coreValuesCheck, episodeTopicsCheck, proceduralGoalsCheck } from './memory-targets.js';
import { multipleChoiceCheck } from './multiple-choice.js';
import { personalityEvidenceCheck } from './personality-evidence.js';
import { photoDescriptionCheck } from './photo-description.js';
import { qaEvidenceCheck } from './qa-evidence.js';
import { questionGoldsCheck } from './question-golds.js';
import { sessionGapCheck } from './session-gap.js';
import { slotExpressedCheck } from './slot-expressed.js';
import { trainingRowsCheck } from './training-rows.js';
import { trajectoryTagsCheck } from './trajectory-tags.js';
import { treePathsCheck } from './tree-paths.js';
import { visualAnswerTextCheck } from './visual-answer-text.js';
import { visualDistractorsCheck } from './visual-distractors.js';
import { vitabenchTasksCheck } from './vitabench-tasks.js';

export { chronologyCheck } from './chronology.js';
export { correctionProblem, correctionScopeCheck } from './correction-scope.js';
export { dietCoherenceCheck } from './diet-coherence.js';
export { causeValence, driftCauseProblem, driftCausesCheck } from './drift-causes.js';
export { driftMeaningCheck } from './drift-meaning.js';
export { episodicCoverageCheck } from './episodic-coverage.js';
export { futureInfoCheck, latestTimeIn, memoryEntryTimes } from './future-info.js';
export { goldInPromptCheck } from './gold-in-prompt.js';
export { idsCheck } from './ids.js';
export { countImagePlaceholders, imageRefsCheck } from './image-refs.js';
export { inspectM2aSample, type M2aInspection, m2aSessionsCheck } from './m2a-sessions.js';
export {
  coreTemplateProblems,
  coreValuesCheck,
  episodeTopicProblems,
  episodeTopicsCheck,
  proceduralGoalProblems,
  proceduralGoalsCheck,
} from './memory-targets.js';
export { multipleChoiceCheck } from './multiple-choice.js';
export { personalityEvidenceCheck, personalityTargetProblems } from './personality-evidence.js';
export { photoDescriptionCheck, photoDescriptionProblems } from './photo-description.js';
export { qaEvidenceCheck } from './qa-evidence.js';
export { goldReadable, questionGoldProblems, questionGoldsCheck } from './question-golds.js';
export { sessionGapCheck } from './session-gap.js';
export { keywordCoverage, normaliseText, slotExpressedCheck } from './slot-expressed.js';
export { trainingRowsCheck } from './training-rows.js';
export { type ParsedStep, parseTrajectoryStep, trajectoryTagsCheck } from './trajectory-tags.js';
export { pathInSchema, treePathsCheck } from './tree-paths.js';
export { m2aPhotoAnswersInText, visualAnswerInText, visualAnswerTextCheck } from './visual-answer-text.js';
export { visualDistractorsCheck, visualQuestionProblems } from './visual-distractors.js';
export { vitabenchTasksCheck } from './vitabench-tasks.js';

/** Every rule check, in the order validation.json lists them. */
export const RULE_CHECKS: readonly RuleCheck[] = [
  chronologyCheck,
  sessionGapCheck,
  idsCheck,
  episodicCoverageCheck,
  qaEvidenceCheck,
  slotExpressedCheck,
  driftMeaningCheck,
  personalityEvidenceCheck,
  correctionScopeCheck,
  multipleChoiceCheck,
  imageRefsCheck,
  photoDescriptionCheck,
  visualDistractorsCheck,
  trajectoryTagsCheck,
  trainingRowsCheck,
  futureInfoCheck,
  goldInPromptCheck,
  treePathsCheck,
  dietCoherenceCheck,
  vitabenchTasksCheck,
  m2aSessionsCheck,
  // Issue 27: labels a careful annotator accepts.
  driftCausesCheck,
  questionGoldsCheck,
  visualAnswerTextCheck,
  episodeTopicsCheck,
  proceduralGoalsCheck,
  coreValuesCheck,
];
