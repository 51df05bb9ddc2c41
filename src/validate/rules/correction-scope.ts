import { slotTopic } from '../../qa/index.js';
import type { Turn } from '../../schemas/dialogue.js';
import type { Preference, UserPlan } from '../../schemas/plan.js';
import type { RuleCheck, RuleFailure, UserIndex } from '../types.js';
import type { QuarantinedUnit } from '../units.js';

const escapeRegex = (text: string) => text.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const names = (text: string, phrase: string) =>
  phrase.trim() !== '' && new RegExp(`\\b${escapeRegex(phrase)}\\b`).test(text.toLowerCase());

/** Preferences the plan holds at `time` (valid from on or before it, not yet ended). */
function heldAt(plan: UserPlan, time: number): Preference[] {
  return plan.preferences.filter(
    (p) => Date.parse(p.validFrom) <= time && (p.validUntil === null || Date.parse(p.validUntil) > time),
  );
}

/**
 * Why a correction turn is out of scope, or null when it only corrects its planted misstatement:
 * it names a preference the plan still holds (its subject, item or a keyword), or the plan gives
 * it no misstatement earlier in its session to correct.
 *
 * @example correctionProblem(index, turn, 2) // 'retracts preference "p-3" (ramen), which the plan still holds'
 */
export function correctionProblem(index: UserIndex, turn: Turn, sessionIndex: number): string | null {
  const plan = index.bundle.plan;
  // Model-written text: its scope was checked by a model on write (correction-check/1), not by names.
  const read = index.bundle.dialogue.offline ? heldAt(plan, Date.parse(turn.time)) : [];
  const held = read.find(
    (p) =>
      names(turn.text, slotTopic(p.slot)) ||
      names(turn.text, p.item) ||
      p.keywords.some((keyword) => names(turn.text, keyword)),
  );
  if (held !== undefined)
    return `retracts preference "${held.id}" (${held.item}), which the plan still holds`;
  const session = index.bundle.dialogue.sessions[sessionIndex];
  const planned = plan.sessions
    .find((p) => p.index === session?.index)
    ?.noise.find((n) => n.round === turn.round);
  const slipRound = planned?.kind === 'correction' ? planned.corrects : undefined;
  const slip =
    slipRound === undefined
      ? undefined
      : session?.turns.find(
          (t) => t.speaker === 'user' && t.round === slipRound && t.noise === 'misstatement',
        );
  if (slip === undefined || slipRound === undefined || slipRound >= turn.round)
    return 'corrects no misstatement planted earlier in its session';
  return null;
}

/**
 * A correction retracts only the misstatement it corrects (a practical detail said wrong in an
 * earlier noise round of its session), never a planned preference the user still holds
 * ("scratch what I said about ramen" while the plan keeps the ramen preference).
 *
 * @example correctionScopeCheck.run(indexUser(bundle), options)
 */
export const correctionScopeCheck: RuleCheck = {
  name: 'correction_scope',
  description: 'corrections retract only their planted misstatement, never a planned, held preference',
  run(index) {
    const failures: RuleFailure[] = [];
    index.bundle.dialogue.sessions.forEach((session, s) => {
      for (const turn of session.turns) {
        if (turn.speaker !== 'user' || turn.noise !== 'correction') continue;
        const problem = correctionProblem(index, turn, s);
        if (problem !== null)
          failures.push({
            check: 'correction_scope',
            userId: index.bundle.plan.userId,
            location: turn.id,
            reason: problem,
          });
      }
    });
    return failures;
  },
  // The correction and the misstatement it pairs with go together: nothing else of the user.
  units(index, failures) {
    const units: QuarantinedUnit[] = [];
    for (const failure of failures) {
      const located = index.turnsById.get(failure.location);
      if (located === undefined) return null;
      const session = index.bundle.dialogue.sessions[located.sessionIndex]!;
      const planned = index.bundle.plan.sessions
        .find((p) => p.index === session.index)
        ?.noise.find((n) => n.round === located.turn.round);
      const rounds = new Set([located.turn.round]);
      if (planned?.corrects !== undefined) rounds.add(planned.corrects);
      units.push({
        userId: failure.userId,
        unit: 'turn',
        id: failure.location,
        check: 'correction_scope',
        reason: failure.reason,
        turns: session.turns.filter((turn) => rounds.has(turn.round)).map((turn) => turn.id),
      });
    }
    return units;
  },
};
