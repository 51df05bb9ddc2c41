import type { M2aSample, M2aTurn } from '../../export/systems/m2a-shape.js';
import { sessionRefProblems, sessionRefs } from '../../util/session-refs.js';
import type { RuleCheck } from '../types.js';

/** What `inspectM2aSample` finds in one merged conversation. */
export interface M2aInspection {
  problems: Array<[string, string]>;
  conceptTurns: number;
  duplicateTurns: number;
  /** QA items naming a session, and those naming one without their evidence. */
  sessionRefs: number;
  wrongSessionRefs: number;
  /** Image references in the inserted concept sessions. */
  injectedImages: number;
}

const sessionOf = (id: string): number | null => {
  const match = /^S(\d+):\d+$/.exec(id);
  return match === null ? null : Number(match[1]);
};

/**
 * Reads one M²A merged conversation as exported (FORMATS.md §6) with where its concept sessions
 * went (`position` = host sessions before them, `inserted` = how many): a concept-session turn
 * whose text (trimmed, any case) is the text of another turn of the conversation is a defect, and
 * so is a question whose "session N" (its question or answer) is not the session `S<N>:…` of any
 * of its evidence turns. Counts the concept sessions' images for the fidelity figure.
 *
 * @example inspectM2aSample(sample, { position: 3, inserted: 5 }).problems // []
 */
export function inspectM2aSample(
  sample: M2aSample,
  placed: { position: number; inserted: number },
): M2aInspection {
  const out: M2aInspection = {
    problems: [],
    conceptTurns: 0,
    duplicateTurns: 0,
    sessionRefs: 0,
    wrongSessionRefs: 0,
    injectedImages: 0,
  };
  const firstSaid = new Map<string, string>();
  const counts = new Map<string, number>();
  const turns: Array<{ session: number; turn: M2aTurn }> = [];
  for (let s = 0; s < sample.conversation.n_session; s++)
    for (const turn of (sample.conversation[`session_${s}`] ?? []) as M2aTurn[]) {
      const key = turn.text.trim().toLowerCase();
      turns.push({ session: s, turn });
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!firstSaid.has(key)) firstSaid.set(key, turn.dia_id);
    }
  for (const { session, turn } of turns) {
    if (session < placed.position || session >= placed.position + placed.inserted) continue;
    out.conceptTurns++;
    out.injectedImages += turn.images.length;
    const key = turn.text.trim().toLowerCase();
    if ((counts.get(key) ?? 0) < 2) continue;
    out.duplicateTurns++;
    const other = firstSaid.get(key) === turn.dia_id ? 'a later turn' : firstSaid.get(key);
    out.problems.push([
      `m2a.conversation.${turn.dia_id}`,
      `concept-session turn repeats the text of ${other}`,
    ]);
  }
  sample.qa.forEach((item, q) => {
    const answer = String(item.answer);
    if (sessionRefs(`${item.question.text} ${answer}`).length === 0) return;
    out.sessionRefs++;
    const problems = sessionRefProblems(item.question.text, answer, item.evidence, sessionOf);
    if (problems.length === 0) return;
    out.wrongSessionRefs++;
    out.problems.push([`m2a.qa[${q}]`, `"${item.question.text}" ${problems[0]}`]);
  });
  return out;
}

/**
 * The M²A merged conversation the export will write for this user, built and checked before
 * export (only when `export.systems.m2a` is enabled: validate puts it on the index): concept
 * turns said once in the conversation, every "session N" at its evidence.
 *
 * @example m2aSessionsCheck.run(index, options) // [] for a clean sample
 */
export const m2aSessionsCheck: RuleCheck = {
  name: 'm2a_sessions',
  description:
    'M²A merged conversation: concept-session turns said once, each "session N" of a question at its evidence',
  run(index) {
    const built = index.bundle.m2a;
    if (built === undefined || 'skipped' in built) return [];
    return inspectM2aSample(built.sample, built.report).problems.map(([location, reason]) => ({
      check: 'm2a_sessions',
      userId: index.bundle.plan.userId,
      location,
      reason,
    }));
  },
};
