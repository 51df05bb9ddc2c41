import { SLIPS } from '../plan/catalogue/life-catalogue.js';
import type { UserPlan } from '../schemas/plan.js';
import { createRng } from '../util/rng.js';

/** The practical detail a misstatement says wrong and its correction puts right. */
export interface Slip {
  /** e.g. "the pickup time". */
  detail: string;
  wrong: string;
  right: string;
  /** Round of the misstatement (same session). */
  slipRound: number;
}

/**
 * The slip of a misstatement or correction round, or null for any other round: which detail
 * (from the correction's note) and the wrong and right values, drawn from a stream keyed by the
 * plan and the misstatement's round, so both rounds (and any realizer) agree on them.
 *
 * @example slipOf(plan, 2, 7) // { detail: 'the pickup time', wrong: '7 pm', right: '8 pm', slipRound: 4 }
 */
export function slipOf(plan: UserPlan, sessionIndex: number, round: number): Slip | null {
  const session = plan.sessions.find((s) => s.index === sessionIndex);
  const item = session?.noise.find((n) => n.round === round);
  if (session === undefined || item === undefined) return null;
  const slipRound =
    item.kind === 'correction' ? item.corrects : item.kind === 'misstatement' ? item.round : undefined;
  if (slipRound === undefined) return null;
  const fix = item.kind === 'correction' ? item : session.noise.find((n) => n.corrects === slipRound);
  const entry = SLIPS.find((s) => s.fix === fix?.note) ?? SLIPS[0]!;
  const rng = createRng(0, plan.userId, plan.horizon.start, 'slip', sessionIndex, slipRound);
  const [wrong, right] = rng.sample(entry.values, 2) as [string, string];
  return { detail: entry.detail, wrong, right, slipRound };
}
