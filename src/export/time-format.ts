import { MONTH_NAMES as MONTHS } from '../util/months.js';

/**
 * ISO → "YYYY-MM-DD HH:MM" (UTC), the minute format of Persona-MME and `<retrieve>` windows.
 *
 * @example formatMinute('2024-09-23T20:08:00.000Z') // '2024-09-23 20:08'
 */
export function formatMinute(iso: string): string {
  // Fast path for canonical UTC ISO strings; anything else goes through Date.
  if (iso.length >= 17 && iso.charCodeAt(10) === 84 /* T */ && iso.endsWith('Z'))
    return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  return new Date(Date.parse(iso)).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * ISO → LoCoMo's free-text session time (FORMATS.md §1), e.g. "1:56 pm on 8 May, 2023" (UTC).
 *
 * @example formatLocomoTime('2023-05-08T13:56:00.000Z') // '1:56 pm on 8 May, 2023'
 */
export function formatLocomoTime(iso: string): string {
  const date = new Date(Date.parse(iso));
  const hours = date.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getUTCMinutes()).padStart(2, '0');
  return `${hour12}:${minutes} ${hours < 12 ? 'am' : 'pm'} on ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}, ${date.getUTCFullYear()}`;
}

/** "(a)", "(b)", … for option index i (the answer convention lives in src/qa/answer-convention.ts). */
export { optionLabel } from '../qa/answer-convention.js';
