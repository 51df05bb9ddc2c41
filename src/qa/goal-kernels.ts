import { GOALS } from '../plan/catalogue/life-catalogue.js';
import type { Goal } from '../schemas/plan.js';
import { ask, isoAt, type Kernel, type QaContext, slotsBefore } from './qa-context.js';

type Reported = Exclude<Goal['states'][number]['status'], 'unknown'>;

/**
 * "How is my plan going?": the latest status the user reported. The label's length says nothing
 * of how often it is right (the longest belongs to a plan not yet begun, a rarer gold).
 */
export const GOAL_STATUS_ANSWERS: Record<Reported, string> = {
  planned: 'Still planning it, not started yet',
  in_progress: 'In progress',
  achieved: 'Achieved it',
  abandoned: 'Gave it up',
};

/**
 * "Did I ever see my plan through?" (Persona-MME's "did we ever complete it?" → "It's unknown"):
 * done, given up, no outcome said yet (a plan last reported as planned or under way), or a plan
 * the user never had.
 */
export const GOAL_OUTCOME_ANSWERS = {
  achieved: 'Yes, I got it done',
  abandoned: 'No, I gave it up',
  open: 'I never said how it ended',
  none: 'I have never mentioned such a plan',
} as const;
type Outcome = keyof typeof GOAL_OUTCOME_ANSWERS;

/**
 * How much likelier an answer is drawn than the commonest among those a user's plans allow. The
 * planner starts every plan (planned or under way), carries few on, ends 7 in 10 of those
 * achieved and 3 given up: without weights "in progress" and "not said" would answer most
 * questions of their form, "gave it up" hardly any. A plan never named is always at hand (each
 * such question is new, where a named plan's repeat is drawn again), so it weighs half.
 * test/qa/goal-tracking.test.ts measures the mix.
 */
const STATUS_WEIGHTS: Record<Reported, number> = {
  in_progress: 1,
  planned: 1.5,
  achieved: 1.5,
  abandoned: 4,
};
const OUTCOME_WEIGHTS: Record<Outcome, number> = { open: 1, none: 0.5, achieved: 1, abandoned: 3 };

function rarerFirst<T extends string>(
  context: QaContext,
  answers: readonly T[],
  weights: Record<T, number>,
): T {
  return answers[context.rng.weightedIndex(answers.map((answer) => weights[answer]))] as T;
}

/** The latest status the user reported by `time` (a plan's "no progress shared" marker is no report). */
export function reportedStatus(goal: Goal, time: number): Reported {
  const reported = goal.states.filter((state) => state.time <= isoAt(time) && state.status !== 'unknown');
  return (reported.pop()?.status ?? 'planned') as Reported;
}

/** The outcome a "did I ever …" question has for a goal: done, given up, or not said. */
export function goalOutcome(goal: Goal, time: number): Exclude<Outcome, 'none'> {
  const status = reportedStatus(goal, time);
  return status === 'achieved' || status === 'abandoned' ? status : 'open';
}

/** Catalogue goals the user has not had nor named before `time` (for "such a plan" questions). */
function strangerGoals(context: QaContext, time: number): string[] {
  return GOALS.filter(
    (spec) =>
      !context.plan.goals.some((goal) => goal.description === spec.description) &&
      spec.keywords.every(
        (word) => (context.keywordSince.get(word.toLowerCase()) ?? '\uffff') >= isoAt(time),
      ),
  ).map((spec) => spec.description);
}

/**
 * Long-term goal tracking in two forms: the progress ("how is it going?", the latest status
 * reported) and the outcome ("did I ever see it through?", unknown while no end was said). An
 * answer is drawn before a goal with it, so no option answers most questions of a form (each
 * form's commonest gold is about 40%).
 */
export const goalTracking: Kernel = (context, time) => {
  const goals = context.plan.goals.filter((goal) => slotsBefore(context, goal.id, time).length > 0);
  if (goals.length === 0) return null;
  const outcomes = new Set(goals.map((goal) => goalOutcome(goal, time)));
  // Half the questions ask the outcome: of a plan that ended, one still open ("not said") or one
  // never named, an answer drawn first (the rarer ends likelier) and then a plan with it.
  if (context.rng.chance(0.5)) return progressQuestion(context, time, goals);
  const strangers = strangerGoals(context, time);
  // A plan never named is one of the answers too (that option is no dead one).
  const outcome = rarerFirst(
    context,
    [...outcomes, ...(strangers.length > 0 ? ['none' as const] : [])],
    OUTCOME_WEIGHTS,
  );
  const goal =
    outcome === 'none' ? null : context.rng.pick(goals.filter((g) => goalOutcome(g, time) === outcome));
  const description = goal?.description ?? context.rng.pick(strangers);
  const answer = GOAL_OUTCOME_ANSWERS[outcome];
  return {
    question: ask(
      context,
      `Did I ever see my plan to ${description} through?`,
      `Did my plan to ${description} ever get done?`,
    ),
    answer,
    distractors: Object.values(GOAL_OUTCOME_ANSWERS).filter((text) => text !== answer),
    evidence: goal === null ? [] : slotsBefore(context, goal.id, time),
    retrievalKeywords: goal === null ? [description] : [...goal.keywords],
    ...(outcome === 'open' || outcome === 'none' ? { unanswerable: true } : {}),
  };
};

/** "How is my plan going?": a status first, then a goal in it. */
function progressQuestion(context: QaContext, time: number, goals: readonly Goal[]) {
  const status = rarerFirst(
    context,
    [...new Set(goals.map((goal) => reportedStatus(goal, time)))],
    STATUS_WEIGHTS,
  );
  const goal = context.rng.pick(goals.filter((g) => reportedStatus(g, time) === status));
  const answer = GOAL_STATUS_ANSWERS[status];
  return {
    question: ask(
      context,
      `How is my plan to ${goal.description} going?`,
      `Where am I with my plan to ${goal.description}?`,
    ),
    answer,
    distractors: Object.values(GOAL_STATUS_ANSWERS).filter((text) => text !== answer),
    evidence: slotsBefore(context, goal.id, time),
    retrievalKeywords: [...goal.keywords],
  };
}
