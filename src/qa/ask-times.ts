/**
 * When questions are asked: one minute after a session's last round (well inside the gap before
 * the next session) or at the end of the history. PersonaMem's questions see a context of the
 * real questions_32k.csv's length (15,560–29,539 tokens), so they are asked only where the history
 * before them already reaches `personaMemMinTokens`; the plan has no text yet and reckons a history
 * at `tokensPerRound` tokens a round.
 */
import type { UserPlan } from '../schemas/plan.js';
import type { QaConfig } from '../schemas/plan-config.js';
import { ms } from './qa-context.js';
import type { TaskSpec } from './tasks.js';

/** The time each session's questions are asked: one minute after its last round (ms). */
export function sessionEndTimes(plan: Pick<UserPlan, 'sessions'>): number[] {
  return plan.sessions.map(
    (session) => ms(session.start) + ((session.rounds - 1) * session.roundGapMinutes + 1) * 60_000,
  );
}

/**
 * The session ends a question of `spec` may be asked at in situ (before the history's end is
 * drawn instead): every session end after the first; for PersonaMem only those whose rounds so
 * far, at `tokensPerRound`, reach `personaMemMinTokens` (none when the whole history falls short:
 * such a user is asked at the end, the longest history it has).
 *
 * @example inSituTimes(plan, PERSONAMEM_TASKS[0], QaConfig.parse({})).length
 */
export function inSituTimes(
  plan: Pick<UserPlan, 'sessions'>,
  spec: Pick<TaskSpec, 'family'>,
  config: Pick<QaConfig, 'personaMemMinTokens' | 'tokensPerRound'>,
): number[] {
  const times = sessionEndTimes(plan);
  if (spec.family !== 'personamem') return times.slice(1);
  let rounds = 0;
  const reached = plan.sessions.map((session) => {
    rounds += session.rounds;
    return rounds * config.tokensPerRound >= config.personaMemMinTokens;
  });
  return times.filter((_, i) => i > 0 && reached[i] === true);
}
