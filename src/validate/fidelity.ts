/**
 * The `fidelity` section of validation.json: does the corpus say what its labels say, and does
 * it have the shapes and proportions of the published systems? Each figure is measured on the
 * run (not sampled) and, where a paper or real file gives one, set beside its published value.
 */

import { LOCOMO_TASKS, PERSONAMEM_TASKS } from '../qa/tasks.js';
import { ExportConfig } from '../schemas/export-config.js';
import { contextFigures } from './fidelity-contexts.js';
import { about, defect, type FidelityFigure, meanFigure, mixFigures } from './fidelity-figures.js';
import { logFigures } from './fidelity-logs.js';
import { emptyFidelityCounts, type FidelityPartial, measureUserFidelity } from './fidelity-measure.js';
import { createOptionFormMeter } from './fidelity-option-form.js';
import { createShortcutMeter } from './fidelity-shortcuts.js';
import { targetFigures } from './fidelity-targets.js';
import { addVitaCounts, emptyVitaCounts, vitaFigures } from './fidelity-vitabench.js';
import { textFigures } from './text-figures.js';
import type { RuleFailure, RuleOptions, UserIndex } from './types.js';

export type { FidelityFigure } from './fidelity-figures.js';
export { type FidelityPartial, measureUserFidelity } from './fidelity-measure.js';

/** Persona-MME image-question share and question length (PersonaVLM §4), LoCoMo and PersonaMem mixes (real files). */
const PUBLISHED = {
  personaMmeImageShare: 34.0,
  personaMmeQuestionWords: 22.7,
  locomoCategories: { 1: 14, 2: 16, 3: 5, 4: 42, 5: 22 } as Record<number, number>,
  /** M²A §5.1: 214 images injected over 10 conversations. */
  m2aImagesPerConversation: 21.4,
  personaMemTypes: {
    track_full_preference_evolution: 23.6,
    recall_user_shared_facts: 21.9,
    recalling_the_reasons_behind_previous_updates: 16.8,
    suggest_new_ideas: 15.8,
    generalizing_to_new_scenarios: 9.7,
    provide_preference_aligned_recommendations: 9.3,
    acknowledge_latest_user_preferences: 0,
  } as Record<string, number>,
};

/** Issue 27's figures: labels a careful annotator accepts (questions and golds). */
function questionFigures(n: ReturnType<typeof emptyFidelityCounts>): Record<string, FidelityFigure> {
  return {
    drift_cause_direction: defect(
      'explicit drift events whose cause runs against the change (a positive cause for a new dislike, AFINN-165)',
      n.driftCauseErrors,
      n.explicitDrifts,
      0,
    ),
    reason_gold_direction: defect(
      'reason questions whose gold is a cause running against the change it explains',
      n.reasonCauseErrors,
      n.reasonQuestions,
      0,
    ),
    visual_answer_in_text: defect(
      'visual-detail questions whose asked colour or count a turn before them says (user or assistant)',
      n.visualInText,
      n.visualAsked,
      0,
    ),
    m2a_photo_answer_in_text: defect(
      'M²A photo questions ("what did the photo … show?") whose caption a turn of the conversation says',
      n.m2aPhotoInText,
      n.m2aPhotoAsked,
      0,
    ),
    standalone_alignment_questions: defect(
      'Persona-MME questions asking personality alignment on their own (the paper judges it within primary cases)',
      n.standaloneAlignment,
      n.mmeCases,
      0,
    ),
    alignment_level_errors: defect(
      "primary cases whose alignment is not the user's level at question time on their most marked trait",
      n.alignmentWrong,
      n.alignedCases,
      0,
    ),
    rl_open_several_answers: defect(
      'open RL rows made of a question with several true answers once its options are gone',
      n.rlOpenSeveral,
      n.rlOpen,
      0,
    ),
    near_duplicate_options: defect(
      'multiple-choice questions with two options naming the same thing ("Peanuts" / "Salted peanuts", "Camping" inside "Camping under the stars") or an option no history makes true ("Used to like X, now likes X")',
      n.nearDuplicateOptions,
      n.mcQuestions,
      0,
    ),
    rl_question_twice: defect(
      'questions exported as two RL rows (multiple choice and open)',
      n.rlTwice,
      n.rlQuestions,
      0,
    ),
    wrong_golds: defect(
      'first-mention dates later than the first turn that said it; preference histories missing a change',
      n.goldWrong,
      n.goldReadable,
      0,
    ),
  };
}

/** A 6-word opening used at least this often counts as a repeated opening (issue 13: ≤ 5% of turns). */
const OPENING_REPEATS = 50;
export interface FidelityOptions {
  /**
   * The pipeline's `plan.qa.weights`: the LoCoMo and PersonaMem mixes are measured against the
   * mix the pipeline asked for (the released files' mixes unless it set its own, as M²A's
   * 2:3:1:4 does). @default {} (the published mixes)
   */
  qaWeights?: Record<string, number>;
  /** The pipeline's export settings, for figures of the exported formats (PersonaMem context length). @default ExportConfig defaults */
  exportConfig?: ExportConfig;
  /** The VitaBench exporter's settings, when the run builds VitaBench tasks (`addUser` measures them). */
  vitabench?: RuleOptions['vitabench'];
  /** The pipeline's `synth.behaviors.noiseRate` when behaviour logs are on (figure `behavior_noise_rate`). @default none */
  behaviorNoiseRate?: number;
}

/**
 * Accumulates the figures user by user (memory: question strings and opening counts only):
 * `addUser` measures a user here, `add` folds a partial measured elsewhere (a worker thread).
 *
 * @example const meter = createFidelityMeter(); meter.addUser(index, failures); meter.finish();
 */
export function createFidelityMeter(options: FidelityOptions = {}) {
  const weights = options.qaWeights ?? {};
  const exportConfig = options.exportConfig ?? ExportConfig.parse({});
  const n = emptyFidelityCounts();
  const openings = new Map<string, number>();
  const trainQuestions = new Set<string>();
  const testQuestions: string[] = [];
  const locomo = new Map<string, number>();
  const personaMem = new Map<string, number>();
  const shortcuts = createShortcutMeter();
  const optionForm = createOptionFormMeter();
  const vita = emptyVitaCounts();
  const userOpenings = new Map<string, number>();
  const userEndings = new Map<string, number>();
  const skeletons = new Map<string, number>();
  const addAll = (target: Map<string, number>, counts: ReadonlyArray<readonly [string, number]>) => {
    for (const [key, count] of counts) target.set(key, (target.get(key) ?? 0) + count);
  };

  /** Folds one user's partial (users in corpus order): the figures do not depend on the thread that measured it. */
  function add(partial: FidelityPartial): void {
    for (const key of Object.keys(n) as Array<keyof typeof n>) n[key] += partial.counts[key];
    addAll(openings, partial.openings);
    for (const question of partial.trainQuestions) trainQuestions.add(question);
    testQuestions.push(...partial.testQuestions);
    addAll(locomo, partial.locomo);
    addAll(personaMem, partial.personaMem);
    shortcuts.add(partial.shortcuts);
    optionForm.add(partial.optionForm);
    addVitaCounts(vita, partial.vitabench);
    addAll(userOpenings, partial.userOpenings);
    addAll(userEndings, partial.userEndings);
    addAll(skeletons, partial.skeletons);
  }

  function addUser(index: UserIndex, failures: ReadonlyMap<string, readonly RuleFailure[]>): void {
    add(measureUserFidelity(index, failures, exportConfig, options.vitabench));
  }

  function finish(): Record<string, FidelityFigure> {
    let repeated = 0;
    for (const count of openings.values()) if (count >= OPENING_REPEATS) repeated += count;
    const overlap = testQuestions.filter((q) => trainQuestions.has(q)).length;
    const figures: Record<string, FidelityFigure> = {
      drift_meaning_errors: defect(
        'drift turns whose polarity, operation or condition contradicts the plan',
        n.driftErrors,
        n.driftSlots,
        0,
      ),
      preference_meaning_errors: defect(
        'preference turns whose polarity or condition contradicts the plan',
        n.prefErrors,
        n.prefSlots,
        0,
      ),
      meaning_unsure: defect(
        'preference and drift readings the meaning reader could not decide (counted, never passed; online a judge decides them at check-on-write)',
        n.meaningUnsure,
        n.meaningReadings,
        20,
      ),
      unanswerable_qa: defect(
        'answerable questions whose evidence turns are missing, late or do not say it',
        n.unanswerable,
        n.answerable,
        0,
      ),
      gold_in_prompt: defect(
        "questions whose system prompt's profile holds the answer",
        n.goldLeaks,
        n.goldAsked,
        0,
      ),
      train_test_question_overlap: defect(
        'test questions whose exact text is also a train question',
        overlap,
        testQuestions.length,
        0,
      ),
      duplicate_questions: defect(
        'questions a user is asked twice (exact duplicate eval items)',
        n.duplicates,
        n.questions,
        0,
      ),
      assistant_repeated_openings: defect(
        `assistant turns opening with a 6-word run used ≥ ${OPENING_REPEATS} times`,
        repeated,
        n.assistantTurns,
        5,
      ),
      plan_label_leaks: defect(
        'turns that read out a plan label ("people in my life", "preferences:")',
        n.labelLeaks,
        n.turns,
        0,
      ),
      personality_target_unsupported: defect(
        'personality-inference targets that are not what their recent messages show (graded from several messages; 3 = not enough evidence)',
        n.personalityUnsupported,
        n.personalityRows,
        0,
      ),
      photo_text_contradictions: defect(
        'user turns with a photo whose words give an object a colour or count the photo does not show',
        n.photoContradictions,
        n.photoTurns,
        0,
      ),
      visual_distractors_true: defect(
        'visual-detail questions with a distractor true of a photo they can mean (or a wrong answer)',
        n.visualAmbiguous,
        n.visualQuestions,
        0,
      ),
      correction_retractions: defect(
        'noise corrections that retract a planned, held preference or correct no planted misstatement',
        n.correctionErrors,
        n.corrections,
        0,
      ),
      self_naming: defect(
        'user turns in which the user says their own full name',
        n.selfNaming,
        n.userTurns,
        0,
      ),
    };
    Object.assign(
      figures,
      questionFigures(n),
      shortcuts.finish(),
      optionForm.finish(),
      vitaFigures(vita),
      targetFigures(n),
      logFigures(n, options.behaviorNoiseRate),
    );
    // Image questions only mean something in a corpus that has images at all.
    if (n.mme > 0 && n.imageTurns > 0) {
      figures.persona_mme_image_questions = about(
        'Persona-MME questions that need an image (paper: 34.0%)',
        n.mmeImage,
        n.mme,
        PUBLISHED.personaMmeImageShare,
      );
      figures.persona_mme_question_words = meanFigure(
        'mean Persona-MME question length in words (paper: 22.7)',
        n.mmeWords,
        n.mme,
        PUBLISHED.personaMmeQuestionWords,
        'words',
      );
    }
    if (n.m2aConversations > 0) {
      figures.m2a_duplicate_concept_turns = defect(
        'M²A concept-session turns whose text another turn of the merged conversation also says',
        n.m2aDuplicateTurns,
        n.m2aConceptTurns,
        0,
      );
      figures.m2a_session_ref_errors = defect(
        'M²A questions naming a session ("session N") that holds none of their evidence',
        n.m2aWrongRefs,
        n.m2aSessionRefs,
        0,
      );
      figures.m2a_images_per_conversation = meanFigure(
        'M²A images injected per merged conversation (paper: 214 over 10 = 21.4)',
        n.m2aImages,
        n.m2aConversations,
        PUBLISHED.m2aImagesPerConversation,
        'images',
      );
    }
    Object.assign(figures, contextFigures(n, exportConfig));
    Object.assign(
      figures,
      mixFigures(
        'LoCoMo',
        LOCOMO_TASKS,
        locomo,
        weights,
        (task) => `locomo_category_${task.locomoCategory}`,
        (task) => PUBLISHED.locomoCategories[task.locomoCategory as number] ?? 0,
        (task) => `QA in category ${task.locomoCategory}`,
      ),
      mixFigures(
        'PersonaMem',
        PERSONAMEM_TASKS,
        personaMem,
        weights,
        (task) => `personamem_${task.task}`,
        (task) => PUBLISHED.personaMemTypes[task.task] ?? 0,
        (task) => `questions of type ${task.task}`,
      ),
    );
    Object.assign(figures, textFigures(n, userOpenings, userEndings, skeletons));
    return figures;
  }

  return { add, addUser, finish };
}
