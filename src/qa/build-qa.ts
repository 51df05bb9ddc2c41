import type { QaTarget, UserPlan } from '../schemas/plan.js';
import type { QaConfig } from '../schemas/plan-config.js';
import type { Rng } from '../util/rng.js';
import { inSituTimes, sessionEndTimes } from './ask-times.js';
import { goalTracking } from './goal-kernels.js';
import {
  adversarial,
  alignmentAt,
  conceptName,
  explanationLevel,
  goalIntent,
  habitRecall,
  personName,
  relationRecognition,
  relationshipDynamics,
  tieredExplanation,
  visualDetail,
} from './life-kernels.js';
import { firstMention, multiHop, openDomain, pairedPreferences, temporal } from './locomo-kernels.js';
import { preferenceEvolution, recommendation, suggestNew, updateReason } from './preference-kernels.js';
import { createQaContext, finishTarget, type Kernel } from './qa-context.js';
import { implicitIntent, latestPreference } from './stance-kernels.js';
import { allocateTasks, LOCOMO_TASKS, PERSONA_MME_TASKS, PERSONAMEM_TASKS, type TaskSpec } from './tasks.js';

/**
 * Kernels per task, first choice first. When the plan has no evidence for the first (no image
 * yet, no conditional preference …) the next one asks a neighbouring question of the same task.
 */
const KERNELS: Record<string, Kernel[]> = {
  visual_detail_recall: [visualDetail],
  semantic_information_recall: [conceptName, personName, habitRecall],
  explicit_intent_inference: [goalIntent],
  implicit_intent_recognition: [implicitIntent, recommendation],
  latest_preference_recognition: [latestPreference],
  interest_evolution_analysis: [preferenceEvolution],
  implicit_preference_recommendation: [recommendation],
  behavioral_pattern_recognition: [habitRecall],
  long_term_goal_tracking: [goalTracking],
  relationship_recognition: [relationRecognition],
  relationship_dynamics_comprehension: [relationshipDynamics],
  tiered_explanation_delivery: [tieredExplanation],
  generalizing_to_new_scenarios: [recommendation],
  recall_user_shared_facts: [habitRecall, personName, goalIntent, latestPreference],
  suggest_new_ideas: [suggestNew],
  acknowledge_latest_user_preferences: [latestPreference],
  track_full_preference_evolution: [preferenceEvolution],
  recalling_the_reasons_behind_previous_updates: [updateReason],
  provide_preference_aligned_recommendations: [recommendation],
  multi_hop: [multiHop, updateReason, preferenceEvolution, pairedPreferences],
  temporal: [temporal, firstMention],
  open_domain: [openDomain],
  single_hop: [latestPreference, habitRecall],
  adversarial: [adversarial],
};

/** Asked in place of a declined tiered explanation: the same aspect's other task, text only. */
const GENERALIZING = PERSONA_MME_TASKS.find(
  (spec) => spec.task === 'generalizing_to_new_scenarios',
) as TaskSpec;

/**
 * Whether this user is asked tiered explanation: by a share of their level's users (plan stage's
 * `explanationShares`) that evens the levels out over the corpus, so the education mix answers
 * no question. One draw per user, from a fork that leaves every other draw as it was.
 */
function explanationAsked(plan: UserPlan, keep: BuildQaOptions['explanationKeep'], rng: Rng): boolean {
  const share = keep?.[explanationLevel(plan.enriched.persona.education)] ?? 1;
  return share >= 1 || rng.fork('tiered-explanation').next() < share;
}

/** Draws of one kernel for one question before the next kernel is tried. */
const DRAWS = 4;

export interface BuildQaOptions {
  rng: Rng;
  config: QaConfig;
  /** Tiered explanation: the share of each level's users it is asked of (absent: all). */
  explanationKeep?: Readonly<Record<string, number>>;
}

/**
 * QA targets for every family: each asked in first person at a session end (one minute after the
 * session's last round, well inside the t_s gap; PersonaMem's only once the history reaches its
 * context length, `ask-times.ts`) or at the end of the history, answered with the
 * plan's state at that time, with evidence slots strictly before it.
 *
 * @example plan.qa = buildQaTargets(plan, { rng: createRng(42, 'qa'), config: QaConfig.parse({}) });
 */
export function buildQaTargets(plan: UserPlan, options: BuildQaOptions): QaTarget[] {
  const { rng, config } = options;
  const context = createQaContext(plan, rng);
  const times = sessionEndTimes(plan);
  const endTime = times[times.length - 1] as number;
  const asksExplanation = explanationAsked(plan, options.explanationKeep, rng);
  const specs = [
    ...allocateTasks(PERSONA_MME_TASKS, config.personaMme, config.weights, rng).map((spec) =>
      spec.task === 'tiered_explanation_delivery' && !asksExplanation ? GENERALIZING : spec,
    ),
    ...allocateTasks(PERSONAMEM_TASKS, config.personaMem, config.weights, rng),
    ...allocateTasks(LOCOMO_TASKS, config.locomo, config.weights, rng),
  ];
  const targets: QaTarget[] = [];
  // One user is never asked the same question twice (an exact duplicate eval item).
  const asked = new Set<string>();
  for (const spec of specs) {
    // In-situ session ends: PersonaMem's only where the history reaches its context length.
    const pool = inSituTimes(plan, spec, config);
    const first = rng.chance(config.atEndRatio) || pool.length === 0 ? endTime : rng.pick(pool);
    const candidates = first === endTime ? [endTime] : [first, endTime];
    let target: QaTarget | null = null;
    let question = '';
    let same = '';
    for (const time of candidates) {
      for (const kernel of KERNELS[spec.task] ?? []) {
        // A kernel draws its subject at random: a draw that repeats an asked question (or lacks
        // distractors) is drawn again, so a task is given up only when its evidence runs out and
        // the corpus keeps the configured mix.
        for (let attempt = 0; attempt < DRAWS && target === null; attempt++) {
          const draft = kernel(context, time, spec);
          // Every answerable question needs evidence; adversarial ones have none by design.
          if (draft === null || (draft.evidence.length === 0 && draft.unanswerable !== true)) continue;
          // Compared without the in-situ lead-in, which differs from one asking to the next.
          question = draft.question.toLowerCase();
          // Nor the same thing in other words: one task, one answer, one evidence ("Which of these
          // goals did I tell you about?" twice about the same goal).
          // (Unanswerable questions have no evidence: each asks about someone else.)
          same =
            draft.evidence.length === 0
              ? question
              : `${spec.task}|${draft.answer}|${draft.evidence.map((slot) => slot.id).join(',')}`;
          if (asked.has(question) || asked.has(same)) continue;
          target = finishTarget(
            context,
            spec,
            time,
            draft,
            `qa-${String(targets.length + 1).padStart(3, '0')}`,
          );
        }
        if (target !== null) break;
      }
      if (target !== null) break;
    }
    if (target !== null) {
      // Personality alignment is judged on primary Persona-MME cases (the paper's 406), not asked on its own.
      const alignment =
        target.family === 'persona-mme' ? alignmentAt(plan, Date.parse(target.questionTime)) : null;
      if (alignment !== null) target.alignment = alignment;
      asked.add(question);
      asked.add(same);
      targets.push(target);
    }
  }
  targets.sort((a, b) => (a.questionTime < b.questionTime ? -1 : a.questionTime > b.questionTime ? 1 : 0));
  targets.forEach((target, index) => {
    target.id = `qa-${String(index + 1).padStart(3, '0')}`;
  });
  return targets;
}
