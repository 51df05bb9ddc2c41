import type { Preference, QaTarget } from '../../schemas/plan.js';
import { MONTH_NAMES } from '../../util/months.js';
import type { RuleCheck, RuleFailure, UserIndex } from '../types.js';

/** Tasks whose answer is a preference history in arrow form ("likes X -> dislikes X"). */
const HISTORY_TASKS = new Set(['track_full_preference_evolution']);

/** "7 May 2024" of an ISO time (the date golds are written in). */
function dayOf(time: number): string {
  const date = new Date(time);
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** The preference a slot states: its own, or the one the drift event it voices opened. */
function statedPreference(index: UserIndex, slotId: string): Preference | undefined {
  const plan = index.bundle.plan;
  const slot = index.slotsById.get(slotId);
  if (slot === undefined) return undefined;
  if (slot.kind === 'preference') return plan.preferences.find((p) => p.id === slot.refId);
  if (slot.kind !== 'drift') return undefined;
  const event = plan.drift.find((d) => d.id === slot.refId);
  return event?.preferenceId == null ? undefined : plan.preferences.find((p) => p.id === event.preferenceId);
}

const sameStatement = (a: Preference, b: Preference) =>
  a.item.toLowerCase() === b.item.toLowerCase() &&
  a.polarity === b.polarity &&
  (a.condition?.when ?? null) === (b.condition?.when ?? null);

/**
 * Whether a question asks when something was *first* said (its words say so), and the thing it
 * asks about: the preference its evidence states.
 */
function firstTelling(index: UserIndex, qa: QaTarget): Preference | undefined {
  if (qa.task !== 'temporal' || !/\bfirst\b/i.test(qa.question)) return undefined;
  const [only] = qa.evidenceSlotIds;
  return only === undefined ? undefined : statedPreference(index, only);
}

/**
 * The problems of one question's gold that a reading of the dialogue and the plan shows:
 * - "when did I first tell you …": the gold is the date of the earliest turn before the question
 *   that states the same preference (item, polarity, condition), a drift turn included;
 * - a preference history repeats a state with nothing between ("likes X -> likes X": a deletion
 *   in the middle was dropped, and no option is then the user's real history).
 *
 * @example questionGoldProblems(index, qa) // ['gold "26 February 2024" but the user first said it on 5 February 2024 (turn …)']
 */
export function questionGoldProblems(index: UserIndex, qa: QaTarget): string[] {
  const problems: string[] = [];
  const asked = firstTelling(index, qa);
  if (asked !== undefined) {
    const questionTime = Date.parse(qa.questionTime);
    let earliest: { time: number; id: string } | null = null;
    for (const session of index.bundle.dialogue.sessions)
      for (const turn of session.turns) {
        const time = Date.parse(turn.time);
        if (turn.speaker !== 'user' || time >= questionTime || (earliest !== null && time >= earliest.time))
          continue;
        for (const slotId of turn.slots) {
          const stated = statedPreference(index, slotId);
          if (stated !== undefined && sameStatement(stated, asked)) earliest = { time, id: turn.id };
        }
      }
    if (earliest !== null && dayOf(earliest.time) !== qa.answer)
      problems.push(
        `gold "${qa.answer}" but the user first said it on ${dayOf(earliest.time)} (turn ${earliest.id})`,
      );
  }
  if (HISTORY_TASKS.has(qa.task)) {
    const steps = qa.answer.split(' -> ').map((step) => step.trim().toLowerCase());
    for (let i = 1; i < steps.length; i++)
      if (steps[i] === steps[i - 1])
        problems.push(`the history "${qa.answer}" repeats "${steps[i]}" with no change between`);
  }
  return problems;
}

/** Whether `questionGoldProblems` has anything to read on this question (the figure's denominator). */
export function goldReadable(index: UserIndex, qa: QaTarget): boolean {
  return HISTORY_TASKS.has(qa.task) || firstTelling(index, qa) !== undefined;
}

/**
 * Golds a careful annotator accepts: first-mention dates count every turn that said it, and
 * preference histories keep every change (issue 27, item 7).
 *
 * @example questionGoldsCheck.run(indexUser(bundle), options)
 */
export const questionGoldsCheck: RuleCheck = {
  name: 'question_golds',
  description: 'first-mention dates are the first turn that said it; preference histories keep every change',
  run(index) {
    const failures: RuleFailure[] = [];
    for (const qa of index.bundle.plan.qa) {
      const problems = questionGoldProblems(index, qa);
      if (problems.length > 0)
        failures.push({
          check: 'question_golds',
          userId: index.bundle.plan.userId,
          location: `plan.qa[${qa.id}]`,
          reason: problems.join('; '),
        });
    }
    return failures;
  },
};
