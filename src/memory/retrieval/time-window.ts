/**
 * Time windows of a `<retrieve>` block (PersonaVLM: `start_time`/`end_time` as
 * `YYYY-MM-DD HH:MM` or null, read as UTC). Boundaries, both inclusive at minute granularity:
 * an entry at time t passes when `start ≤ t` and `t < end + 1 min` — so `end_time` names the
 * last minute that is still inside the window. ISO times with seconds are exact instants
 * (`start ≤ t ≤ end`). Null, empty or "null" means unbounded on that side.
 */
const MINUTE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;
const DATE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface TimeWindow {
  /** Inclusive lower bound, epoch ms (−∞ when open). */
  from: number;
  /** Inclusive upper bound, epoch ms (+∞ when open). */
  to: number;
}

/**
 * Reads a window bound as epoch ms; `side` decides where a minute- or day-granular bound lands.
 * Returns null for an open bound or unreadable text.
 *
 * @example
 * parseRetrieveTime('2024-03-05 14:07', 'end'); // Date.UTC(2024, 2, 5, 14, 7, 59, 999)
 */
export function parseRetrieveTime(text: string | null | undefined, side: 'start' | 'end'): number | null {
  if (text == null) return null;
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.toLowerCase() === 'null' || trimmed.toLowerCase() === 'none') return null;
  const minute = MINUTE_FORMAT.exec(trimmed);
  if (minute !== null) {
    const [, y, mo, d, h, mi] = minute.map(Number) as [number, number, number, number, number, number];
    const start = Date.UTC(y, mo - 1, d, h, mi);
    return side === 'start' ? start : start + 59_999;
  }
  const day = DATE_FORMAT.exec(trimmed);
  if (day !== null) {
    const [, y, mo, d] = day.map(Number) as [number, number, number, number];
    const start = Date.UTC(y, mo - 1, d);
    return side === 'start' ? start : start + 86_399_999;
  }
  const parsed = Date.parse(trimmed);
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * The window of one retrieval; an unreadable bound is treated as open (a model's malformed time
 * must not silently empty the memory).
 *
 * @example
 * inWindow(createTimeWindow('2024-03-05 14:00', null), Date.parse('2024-03-05T14:00:00Z')); // true
 */
export function createTimeWindow(start?: string | null, end?: string | null): TimeWindow {
  return {
    from: parseRetrieveTime(start, 'start') ?? Number.NEGATIVE_INFINITY,
    to: parseRetrieveTime(end, 'end') ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * True when `time` (epoch ms) lies inside the window, both ends inclusive.
 *
 * @example
 * inWindow(createTimeWindow(null, '2024-03-05 14:07'), Date.parse('2024-03-05T14:07:59Z')); // true
 */
export function inWindow(window: TimeWindow, time: number): boolean {
  return time >= window.from && time <= window.to;
}
