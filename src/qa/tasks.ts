import type { QaFamily } from '../schemas/plan.js';

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

/** Persona-MME: 7 aspects, 14 tasks (SPEC.md §1; FORMATS.md §7 `type` → `question_type`). */
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
  mme('Personality Alignment', 'personality_alignment', 'binary'),
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
 * Splits `count` questions over tasks by weight with largest remainders, so equal weights and
 * `count ≥ tasks` cover every task.
 *
 * @example allocateTasks(PERSONA_MME_TASKS, 14, {}); // one of each
 */
export function allocateTasks(
  tasks: readonly TaskSpec[],
  count: number,
  weights: Record<string, number>,
): TaskSpec[] {
  const w = tasks.map((task) => weights[task.task] ?? 1);
  const total = w.reduce((sum, value) => sum + value, 0);
  if (total <= 0 || count <= 0) return [];
  const exact = w.map((value) => (value / total) * count);
  const counts = exact.map(Math.floor);
  let left = count - counts.reduce((sum, value) => sum + value, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    counts[index] = (counts[index] ?? 0) + 1;
    left--;
  }
  return tasks.flatMap((task, index) => Array<TaskSpec>(counts[index] ?? 0).fill(task));
}
