import { InputError } from '../errors/index.js';
import { MONTH_NAMES as MONTHS } from '../util/months.js';

const LOCOMO_TIME = /^(\d{1,2}):(\d{2}) (am|pm) on (\d{1,2}) ([A-Za-z]+), (\d{4})$/;

/**
 * Parses LoCoMo's free-text session time (`"1:56 pm on 8 May, 2023"`, FORMATS.md §1) as UTC
 * epoch milliseconds; the inverse of `formatLocomoTime` on every time in `locomo10.json`.
 *
 * @example parseLocomoTime('1:56 pm on 8 May, 2023') // Date.UTC(2023, 4, 8, 13, 56)
 */
export function parseLocomoTime(text: string): number {
  const match = LOCOMO_TIME.exec(text.trim());
  const month =
    match === null ? -1 : MONTHS.findIndex((name) => name.toLowerCase() === match[5]!.toLowerCase());
  if (match === null || month < 0) {
    throw new InputError('locomo host', `cannot parse the session time "${text}"`, {
      hint: 'expected e.g. "1:56 pm on 8 May, 2023"',
    });
  }
  let hour = Number(match[1]) % 12;
  if (match[3] === 'pm') hour += 12;
  return Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]));
}

/**
 * Formats UTC epoch milliseconds as a LoCoMo session time (minutes, 12-hour clock, no leading
 * zero on the hour).
 *
 * @example formatLocomoTime(Date.UTC(2023, 4, 8, 13, 56)) // '1:56 pm on 8 May, 2023'
 */
export function formatLocomoTime(ms: number): string {
  const date = new Date(ms);
  const hours = date.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${hour12}:${minutes} ${hours < 12 ? 'am' : 'pm'} on ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}, ${date.getUTCFullYear()}`;
}

const PLAIN_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Parses PersonaVLM's `"YYYY-MM-DD HH:MM"` (optionally `:SS`) round time as UTC.
 *
 * @example parsePlainTime('2024-09-23 20:08') // Date.UTC(2024, 8, 23, 20, 8)
 */
export function parsePlainTime(text: string): number {
  const match = PLAIN_TIME.exec(text.trim());
  if (match === null) {
    throw new InputError('personavlm host', `cannot parse the time "${text}"`, {
      hint: 'expected "YYYY-MM-DD HH:MM"',
    });
  }
  return Date.UTC(
    Number(match[1]),
    Number(match[2]) - 1,
    Number(match[3]),
    Number(match[4]),
    Number(match[5]),
    Number(match[6] ?? 0),
  );
}

/** Formats UTC ms as `"YYYY-MM-DD HH:MM"` (with `:SS` when `seconds`). */
export function formatPlainTime(ms: number, seconds = false): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)}`;
}
