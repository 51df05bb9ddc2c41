import { InterpolationError } from '../errors/index.js';

/**
 * Interpolation times τ_j = t_start + j/(N+1)·(t_end − t_start), j = 1…N (M²A, SPEC.md §3),
 * floored to `resolutionMs` (a minute for hosts whose times carry minutes).
 *
 * @example interpolationTimes(0, 4 * 60_000, 3, 60_000) // [60000, 120000, 180000]
 */
export function interpolationTimes(tStart: number, tEnd: number, count: number, resolutionMs = 1): number[] {
  const times: number[] = [];
  for (let j = 1; j <= count; j++) {
    const tau = tStart + (j / (count + 1)) * (tEnd - tStart);
    times.push(Math.floor(tau / resolutionMs) * resolutionMs);
  }
  return times;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * A session time moved out of the night (00:00–08:00 and 22:00–24:00, host clock) to the same
 * day's waking hours, keeping its minutes, when the gap spans days — people do not chat with
 * their assistant at 3 am as often as τ_j would have them. The formula's time is kept when the
 * move would leave the gap.
 */
function awake(tau: number, duration: number, tStart: number, tEnd: number): number {
  if (tEnd - tStart < DAY) return tau;
  const day = Math.floor(tau / DAY) * DAY;
  const local = tau - day;
  const moved =
    local < 8 * HOUR ? day + 8 * HOUR + local : local >= 22 * HOUR ? day + local - 10 * HOUR : tau;
  return moved > tStart && moved + duration < tEnd ? moved : tau;
}

/**
 * Places N sessions of the given durations at τ_1…τ_N between two host sessions (a time at night
 * moves to the same day's waking hours when the gap spans days, see `awake`). The host
 * session before ends at `tStart`, the next starts at `tEnd`. Throws `InterpolationError` when
 * the merged timeline would not be strictly increasing (the gap is too small).
 *
 * @example placeSessions(0, 3_600_000, [60_000, 60_000], 60_000) // [1200000, 2400000]
 */
export function placeSessions(
  tStart: number,
  tEnd: number,
  durations: readonly number[],
  resolutionMs = 1,
): number[] {
  if (!(tEnd > tStart)) {
    throw new InterpolationError(
      `host sessions are not in order around the insertion point (${new Date(tStart).toISOString()} → ${new Date(tEnd).toISOString()})`,
      { hint: 'choose another --position' },
    );
  }
  const starts = interpolationTimes(tStart, tEnd, durations.length, resolutionMs).map((tau, j) =>
    awake(tau, durations[j]!, tStart, tEnd),
  );
  let previousEnd = tStart;
  for (let j = 0; j < starts.length; j++) {
    const start = starts[j]!;
    const end = start + durations[j]!;
    const nextStart = starts[j + 1] ?? tEnd;
    if (!(start > previousEnd) || !(end < nextStart)) {
      const needed = durations.reduce((sum, d) => sum + d + resolutionMs, resolutionMs);
      throw new InterpolationError(
        `the gap between host sessions (${new Date(tStart).toISOString()} → ${new Date(tEnd).toISOString()}, ${Math.round((tEnd - tStart) / 60_000)} min) is too small for ${durations.length} sessions at τ_j = t_start + j/(N+1)·(t_end − t_start): session ${j + 1} would span ${new Date(start).toISOString()} → ${new Date(end).toISOString()} (about ${Math.ceil((needed * (durations.length + 1)) / durations.length / 60_000)} min needed)`,
        { hint: 'insert fewer sessions, or pick a position with a larger gap' },
      );
    }
    previousEnd = end;
  }
  return starts;
}
