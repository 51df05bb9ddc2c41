/**
 * Quarantine at the finest unit: a defect that sits in one round or one session (a turn that
 * repeats an earlier one, a blocklisted phrase, a session whose turns do not alternate) removes that
 * round or session, not the whole user. The questions whose evidence sat in a removed unit are
 * dropped with the reason; export leaves the units, their memory targets and those questions out.
 */
import type { ValidateConfig } from '../schemas/validate-config.js';
import type { JudgeVerdict } from './judges/types.js';
import { normaliseText } from './rules/slot-expressed.js';
import type { UserIndex } from './types.js';

/** One removed unit: a round (`turn`: the user turn and its reply) or a whole session. */
export interface QuarantinedUnit {
  userId: string;
  unit: 'turn' | 'session';
  /** The defective turn's id, or `<userId>:S<index>` for a session. */
  id: string;
  check: string;
  reason: string;
  /** Every turn id the unit removes. */
  turns: string[];
}

/** A question left out because its evidence sat in a removed unit. */
export interface DroppedQuestion {
  userId: string;
  qaId: string;
  reason: string;
}

/** The round of a turn (its user turn and the assistant reply) as turn ids. */
function roundTurns(index: UserIndex, sessionIndex: number, round: number): string[] {
  const session = index.bundle.dialogue.sessions[sessionIndex];
  return (session?.turns ?? []).filter((turn) => turn.round === round).map((turn) => turn.id);
}

function sessionUnit(index: UserIndex, s: number, check: string, reason: string): QuarantinedUnit {
  const session = index.bundle.dialogue.sessions[s]!;
  return {
    userId: index.bundle.plan.userId,
    unit: 'session',
    id: `${index.bundle.plan.userId}:S${session.index}`,
    check,
    reason,
    turns: session.turns.map((turn) => turn.id),
  };
}

/**
 * The units that remove what a failed offline judge verdict found, or null when the defect is
 * the user's as a whole (persona consistency, facts never stated, a model judge's worst-session
 * verdict, or every turn affected): coherence → every round repeating an earlier turn of its
 * session word for word (a session whose turns do not alternate goes whole); safety → every
 * round with a blocklisted phrase. A session whose every round is affected goes whole.
 *
 * @example unitsForVerdict(index, verdict, config) // [{ unit: 'turn', id: 'u:S3:T12', … }]
 */
export function unitsForVerdict(
  index: UserIndex,
  verdict: JudgeVerdict,
  config: ValidateConfig,
  offline: boolean,
): QuarantinedUnit[] | null {
  const check = `judge:${verdict.check}`;
  const sessions = index.bundle.dialogue.sessions;
  const units: QuarantinedUnit[] = [];
  // A model judge sees a sample of sessions and reports the worst: its verdict stays the user's.
  if (!offline) return null;
  if (verdict.check === 'coherence' || verdict.check === 'safety') {
    sessions.forEach((current, s) => {
      const counts = new Map<string, number>();
      let alternates = true;
      const rounds = new Map<number, string>();
      current.turns.forEach((turn, t) => {
        if (turn.speaker !== (t % 2 === 0 ? 'user' : 'assistant')) alternates = false;
        const key = normaliseText(turn.text);
        const repeats = (counts.get(key) ?? 0) + 1;
        counts.set(key, repeats);
        if (verdict.check === 'coherence' && repeats > config.judges.maxRepeatsPerSession)
          rounds.set(turn.round, `${turn.id} repeats an earlier turn of the session word for word`);
        if (verdict.check === 'safety' && blocked(config, key))
          rounds.set(turn.round, `${turn.id} has a blocklisted phrase`);
      });
      if (verdict.check === 'coherence' && !alternates) {
        units.push(sessionUnit(index, s, check, 'turns of the session do not alternate user → assistant'));
        return;
      }
      const roundIds = [...rounds.keys()];
      if (roundIds.length === 0) return;
      const turns = roundIds.flatMap((round) => roundTurns(index, s, round));
      if (turns.length >= current.turns.length) {
        units.push(sessionUnit(index, s, check, [...rounds.values()].join('; ')));
        return;
      }
      for (const [round, reason] of rounds) {
        const ids = roundTurns(index, s, round);
        const id = current.turns.find((turn) => turn.round === round && reason.startsWith(turn.id))?.id;
        units.push({
          userId: index.bundle.plan.userId,
          unit: 'turn',
          id: id ?? ids[0]!,
          check,
          reason,
          turns: ids,
        });
      }
    });
  } else return null;
  if (units.length === 0) return null;
  const removed = new Set(units.flatMap((unit) => unit.turns));
  const total = sessions.reduce((sum, s) => sum + s.turns.length, 0);
  return removed.size >= total ? null : units;
}

/**
 * Units without repeats: one entry per id (a round both judges flag is removed once), and no
 * round inside a session that goes whole.
 *
 * @example mergeUnits([...coherenceUnits, ...safetyUnits])
 */
export function mergeUnits(units: readonly QuarantinedUnit[]): QuarantinedUnit[] {
  const inSessions = new Set(units.filter((u) => u.unit === 'session').flatMap((u) => u.turns));
  const seen = new Set<string>();
  return units.filter((unit) => {
    if (seen.has(unit.id) || (unit.unit === 'turn' && unit.turns.every((id) => inSessions.has(id))))
      return false;
    seen.add(unit.id);
    return true;
  });
}

function blocked(config: ValidateConfig, normalised: string): boolean {
  return config.judges.blocklist.some((phrase) =>
    ` ${normalised} `.includes(` ${normaliseText(phrase).trim()} `),
  );
}

/**
 * The questions whose evidence turn (or whose question, for a removed session holding its time)
 * sits in a removed unit, each with the unit's reason.
 *
 * @example droppedQuestions(index, units) // [{ qaId: 'qa-004', reason: 'evidence turn u:S3:T12 removed: …' }]
 */
export function droppedQuestions(index: UserIndex, units: readonly QuarantinedUnit[]): DroppedQuestion[] {
  const unitOf = new Map<string, QuarantinedUnit>();
  for (const unit of units) for (const id of unit.turns) unitOf.set(id, unit);
  const dropped: DroppedQuestion[] = [];
  for (const qa of index.bundle.plan.qa) {
    for (const slotId of qa.evidenceSlotIds) {
      const turn = index.turnBySlot.get(slotId)?.turn;
      const unit = turn === undefined ? undefined : unitOf.get(turn.id);
      if (unit === undefined || turn === undefined) continue;
      dropped.push({
        userId: index.bundle.plan.userId,
        qaId: qa.id,
        reason: `evidence turn ${turn.id} was quarantined (${unit.check}: ${unit.reason})`,
      });
      break;
    }
  }
  return dropped;
}
