import type { QaFamily } from '../schemas/plan.js';
import type { Rng } from '../util/rng.js';

/** One question type of a family: its task name (snake_case), group label and answer form. */
export interface TaskSpec {
  family: QaFamily;
  task: string;
  /** Persona-MME aspect, LoCoMo label; PersonaMem's topic is filled per question. */
  group: string;
  answerType: 'mc' | 'open' | 'binary';
  locomoCategory: number | null;
}

const mme = (group: string, task: string, answerType: TaskSpec['answerType'] = 'mc'): TaskSpec => ({
  family: 'persona-mme',
  task,
  group,
  answerType,
  locomoCategory: null,
});

/**
 * Persona-MME: 13 tasks over 6 aspects (SPEC.md §1; FORMATS.md §7 `type` → `question_type`). The
 * seventh aspect, personality alignment, "is not a standalone category but is evaluated
 * concurrently within 406 of the primary task cases" (Persona-MME's appendix): a primary case
 * carries it as `alignment` (build-qa.ts), never as a yes/no question of its own.
 */
export const PERSONA_MME_TASKS: readonly TaskSpec[] = [
  mme('Memory Recall', 'visual_detail_recall'),
  mme('Memory Recall', 'semantic_information_recall'),
  mme('Intent Inference', 'explicit_intent_inference'),
  mme('Intent Inference', 'implicit_intent_recognition'),
  mme('Preference Recognition', 'latest_preference_recognition'),
  mme('Preference Recognition', 'interest_evolution_analysis'),
  mme('Preference Recognition', 'implicit_preference_recommendation'),
  mme('Behavioral Awareness', 'behavioral_pattern_recognition'),
  mme('Behavioral Awareness', 'long_term_goal_tracking'),
  mme('Relationship Understanding', 'relationship_recognition'),
  mme('Relationship Understanding', 'relationship_dynamics_comprehension'),
  mme('Personalized Growth Modeling', 'tiered_explanation_delivery'),
  mme('Personalized Growth Modeling', 'generalizing_to_new_scenarios'),
];

const pm = (task: string): TaskSpec => ({
  family: 'personamem',
  task,
  group: '',
  answerType: 'mc',
  locomoCategory: null,
});

/** PersonaMem's 7 query types, spelled as in the released question CSVs (FORMATS.md §4). */
export const PERSONAMEM_TASKS: readonly TaskSpec[] = [
  pm('recall_user_shared_facts'),
  pm('suggest_new_ideas'),
  pm('acknowledge_latest_user_preferences'),
  pm('track_full_preference_evolution'),
  pm('recalling_the_reasons_behind_previous_updates'),
  pm('provide_preference_aligned_recommendations'),
  pm('generalizing_to_new_scenarios'),
];

const locomo = (task: string, group: string, category: number): TaskSpec => ({
  family: 'locomo',
  task,
  group,
  answerType: 'open',
  locomoCategory: category,
});

/** LoCoMo's categories as the official evaluation numbers them (FORMATS.md §1). */
export const LOCOMO_TASKS: readonly TaskSpec[] = [
  locomo('multi_hop', 'Multi-Hop', 1),
  locomo('temporal', 'Time', 2),
  locomo('open_domain', 'Knowledge', 3),
  locomo('single_hop', 'Single-Hop', 4),
  locomo('adversarial', 'Adversarial', 5),
];

/** PersonaMem topic of a preference category (the released CSV's `topic` values). */
export const PERSONAMEM_TOPICS: Record<string, string> = {
  food: 'foodRecommendation',
  shopping: 'onlineShopping',
  travel: 'travelPlanning',
  entertainment: 'movieRecommendation',
  lifestyle: 'therapy',
  longtail: 'bookRecommendation',
  people: 'familyRelations',
  goals: 'studyConsultation',
};

/**
 * Published task mixes, used where a pipeline sets no weight: Persona-MME's image-question share,
 * PersonaMem's query types as the
 * released 32k question file has them (it has no `acknowledge_latest_user_preferences`), LoCoMo's
 * categories as the released locomo10.json has them. Keys are `family:task`.
 */
export const PUBLISHED_TASK_WEIGHTS: Readonly<Record<string, number>> = {
  // Persona-MME: 34% of questions need an image (PersonaVLM §4); visual detail recall carries most.
  'persona-mme:visual_detail_recall': 4,
  'personamem:track_full_preference_evolution': 23.6,
  'personamem:recall_user_shared_facts': 21.9,
  'personamem:recalling_the_reasons_behind_previous_updates': 16.8,
  'personamem:suggest_new_ideas': 15.8,
  'personamem:generalizing_to_new_scenarios': 9.7,
  'personamem:provide_preference_aligned_recommendations': 9.3,
  'personamem:acknowledge_latest_user_preferences': 0,
  'locomo:multi_hop': 14,
  'locomo:temporal': 16,
  'locomo:open_domain': 5,
  'locomo:single_hop': 42,
  'locomo:adversarial': 22,
};

/** A task's weight: the pipeline's `family:task`, then its bare task name, then the published mix, else 1. */
export function taskWeight(task: TaskSpec, weights: Record<string, number>): number {
  const scoped = `${task.family}:${task.task}`;
  return weights[scoped] ?? weights[task.task] ?? PUBLISHED_TASK_WEIGHTS[scoped] ?? 1;
}

/**
 * Splits `count` questions over tasks by weight: each task gets the whole part of its share, and
 * the questions left go to tasks drawn with probability equal to their remainders (with `rng`;
 * largest remainders without), so over many users the mix is the weights' mix. Equal weights and
 * `count ≥ tasks` cover every task.
 *
 * @example allocateTasks(PERSONA_MME_TASKS, 14, {}); // one of each
 */
export function allocateTasks(
  tasks: readonly TaskSpec[],
  count: number,
  weights: Record<string, number>,
  rng?: Rng,
): TaskSpec[] {
  const w = tasks.map((task) => taskWeight(task, weights));
  const total = w.reduce((sum, value) => sum + value, 0);
  if (total <= 0 || count <= 0) return [];
  const exact = w.map((value) => (value / total) * count);
  const counts = exact.map(Math.floor);
  let left = count - counts.reduce((sum, value) => sum + value, 0);
  const rest = exact.map((value) => value - Math.floor(value));
  if (rng !== undefined && left > 0) {
    // Systematic sampling: task i gets an extra question with probability exactly rest[i].
    let mark = rng.next();
    let cumulative = 0;
    rest.forEach((value, index) => {
      cumulative += value;
      while (left > 0 && mark < cumulative) {
        counts[index] = (counts[index] ?? 0) + 1;
        rest[index] = 0;
        mark += 1;
        left--;
      }
    });
  }
  const order = rest
    .map((value, index) => ({ index, rest: value }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    counts[index] = (counts[index] ?? 0) + 1;
    left--;
  }
  return tasks.flatMap((task, index) => Array<TaskSpec>(counts[index] ?? 0).fill(task));
}

/**
 * Profile fields (core-memory keys) that decide a task's answer: a question's system prompt leaves
 * them out, so the answer has to come from what the user said (a tiered explanation is pitched
 * from the education the user told of, not from an `education:` line in the prompt).
 */
export const PROMPT_WITHHELD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  tiered_explanation_delivery: ['education'],
};
