import { PlanError } from '../errors/index.js';
import type { Split } from '../schemas/common.js';
import type { PlanSettings } from '../schemas/plan-config.js';
import type { Rng } from '../util/rng.js';
import { iso } from './statements.js';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** One round's position in the history. */
export interface RoundRef {
  sessionIndex: number;
  round: number;
  /** Epoch milliseconds of the user message. */
  time: number;
  /** The same instant as an ISO string (computed once; every slot and state at this round reuses it). */
  iso: string;
}

export interface SessionDraft {
  index: number;
  start: number;
  rounds: number;
  roundGapMinutes: number;
}

export interface Timeline {
  start: number;
  end: number;
  context: string;
  sessions: SessionDraft[];
  /** Every round, chronological. */
  rounds: RoundRef[];
}

/** Local-clock windows (hours) in which a session of each period starts. */
const PERIOD_HOURS: Record<keyof PlanSettings['dayPeriods'], [number, number]> = {
  morning: [7, 10],
  midday: [11.5, 14],
  afternoon: [14, 17.5],
  evening: [18, 21.5],
  night: [21.5, 23.5],
};

function splitRounds(rng: Rng, total: number, [min, max]: readonly [number, number]): number[] {
  const sizes: number[] = [];
  let remaining = total;
  while (remaining > 0) {
    if (remaining <= max) {
      sizes.push(remaining);
      break;
    }
    let size = rng.int(Math.max(1, min), max);
    // Never leave a tail shorter than the minimum session.
    if (remaining - size < min) size = remaining - min;
    sizes.push(size);
    remaining -= size;
  }
  return sizes;
}

/**
 * Draws the horizon, the sessions and the time of every round: sessions start at realistic
 * local times (morning … night), and consecutive sessions are separated by at least t_s minutes
 * between the last round of one and the first round of the next (PersonaVLM §3).
 *
 * @example const timeline = buildTimeline(rng, settings, 'train');
 */
export function buildTimeline(rng: Rng, settings: PlanSettings, split: Split): Timeline {
  const contextNames = split === 'train' ? settings.trainContexts : settings.testContexts;
  const context = rng.pick(contextNames);
  const profile = settings.contexts[context];
  if (profile === undefined) {
    throw new PlanError(`plan.${split}Contexts names "${context}", which is not in plan.contexts`, {
      hint: `define plan.contexts.${context}.rounds or use one of: ${Object.keys(settings.contexts).join(', ')}`,
    });
  }
  const totalRounds = rng.int(profile.rounds[0], profile.rounds[1]);
  const sizes = splitRounds(rng, totalRounds, settings.roundsPerSession);
  const [minDays, maxDays] = settings.horizonDays[split];
  const days = rng.float(minDays, maxDays);
  const base = Date.parse(settings.startDate);
  const start = base + rng.int(0, settings.startJitterDays) * DAY;
  let end = start + Math.round(days * DAY);

  const periods = Object.keys(PERIOD_HOURS) as Array<keyof typeof PERIOD_HOURS>;
  const weights = periods.map((period) => settings.dayPeriods[period]);
  const starts = sizes
    .map(() => {
      const day = Math.floor(rng.float(0, Math.max(1, days - 1)));
      const [from, to] = PERIOD_HOURS[periods[rng.weightedIndex(weights)] ?? 'evening'];
      const minute = Math.round(rng.float(from, to) * 60);
      return start + day * DAY + minute * MINUTE;
    })
    .sort((a, b) => a - b);

  const sessions: SessionDraft[] = [];
  const rounds: RoundRef[] = [];
  let earliest = start;
  sizes.forEach((size, index) => {
    const gap = Math.round(rng.float(settings.roundGapMinutes[0], settings.roundGapMinutes[1]) * 10) / 10;
    const roundGapMinutes = Math.max(0.1, gap);
    const sessionStart = Math.max(starts[index] ?? earliest, earliest);
    sessions.push({ index, start: sessionStart, rounds: size, roundGapMinutes });
    for (let round = 0; round < size; round++) {
      const time = sessionStart + Math.round(round * roundGapMinutes * MINUTE);
      rounds.push({ sessionIndex: index, round, time, iso: iso(time) });
    }
    const last = sessionStart + Math.round((size - 1) * roundGapMinutes * MINUTE);
    // The next session may start only after a full t_s gap (plus a minute of slack).
    earliest = last + (settings.sessionGapMinutes + 1) * MINUTE;
  });
  const lastRound = rounds[rounds.length - 1];
  // Crowded schedules may push the last session past the drawn end: the horizon covers it.
  if (lastRound !== undefined && lastRound.time + 2 * MINUTE > end) end = lastRound.time + 2 * MINUTE;
  return { start, end, context, sessions, rounds };
}
