/**
 * Which top-level string columns of a jsonl file Hugging Face `datasets` will type as
 * timestamps. `datasets` reads JSON lines with pyarrow's JSON reader, whose type inference
 * (`arrow/json/converter.cc`, `GetPromotionGraph`) first types a string column `timestamp[s]` and
 * falls back to `utf8` only when some value of it fails Arrow's ISO-8601 parser
 * (`arrow/util/value_parsing.h`, `ParseTimestampISO8601`). Such a column reaches ms-swift as
 * `datetime` objects, which its validation-split save cannot write.
 */

const ISO_SECONDS =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2})(?::(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Arrow's ISO-8601 parse for unit `s`: `YYYY-MM-DD`, optionally `[ T]hh`, `:mm`, `:ss` and a zone
 * (`Z`, `±hh`, `±hh:mm`, `±hhmm`); no fractional seconds at this unit; fields in range.
 *
 * @example parsesAsArrowTimestamp('2024-02-12 12:00') // true
 */
export function parsesAsArrowTimestamp(value: string): boolean {
  const m = ISO_SECONDS.exec(value);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (m[4] !== undefined && Number(m[4]) >= 24) return false;
  if (m[5] !== undefined && Number(m[5]) >= 60) return false;
  if (m[6] !== undefined && Number(m[6]) >= 60) return false;
  return true;
}

/** Feed it rows; `columns()` names the columns every non-null value of which is such a string. */
export class TimestampColumnTracker {
  private readonly state = new Map<string, boolean>();

  add(row: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(row)) {
      if (value === null || value === undefined) continue;
      if (this.state.get(key) === false) continue;
      this.state.set(key, typeof value === 'string' && parsesAsArrowTimestamp(value));
    }
  }

  columns(): string[] {
    return [...this.state].filter(([, all]) => all).map(([key]) => key);
  }
}
