/**
 * Splits a PersonaVLM response-stage completion into its parts (SPEC.md §1, "Response stage"):
 * `<think>…</think>` then exactly one of `<answer>…</answer>` or `<retrieve>{json}</retrieve>`.
 * Parsing is lenient (it reports what it saw); the format reward decides the credit.
 *
 * @example parseResponse('<think>x</think><answer>(b)</answer>').answer // '(b)'
 */
export interface ParsedResponse {
  /** Text of the first `<think>` block, or null. */
  think: string | null;
  /** True when the completion starts (after whitespace) with the `<think>` block. */
  thinkFirst: boolean;
  /** Text of the last `<answer>` block, or null. */
  answer: string | null;
  /** Raw text of the last `<retrieve>` block, or null. */
  retrieve: string | null;
  answerCount: number;
  retrieveCount: number;
  /** Non-whitespace text outside every recognised block. */
  stray: string;
}

const BLOCK = /<(think|answer|retrieve)>([\s\S]*?)<\/\1>/g;

export function parseResponse(completion: string): ParsedResponse {
  let think: string | null = null;
  let thinkFirst = false;
  let answer: string | null = null;
  let retrieve: string | null = null;
  let answerCount = 0;
  let retrieveCount = 0;
  let stray = '';
  let cursor = 0;
  for (const match of completion.matchAll(BLOCK)) {
    const index = match.index ?? 0;
    stray += completion.slice(cursor, index);
    cursor = index + match[0].length;
    const body = match[2] ?? '';
    if (match[1] === 'think') {
      if (think === null) {
        think = body.trim();
        thinkFirst = completion.slice(0, index).trim() === '';
      } else stray += match[0];
    } else if (match[1] === 'answer') {
      answerCount++;
      answer = body.trim();
    } else {
      retrieveCount++;
      retrieve = body.trim();
    }
  }
  stray += completion.slice(cursor);
  return { think, thinkFirst, answer, retrieve, answerCount, retrieveCount, stray: stray.trim() };
}

/** `YYYY-MM-DD HH:MM`, the retrieval time format (SPEC.md §1). */
export const RETRIEVE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d$/;

export interface RetrieveQuery {
  keywords: string;
  start_time: string | null;
  end_time: string | null;
}

/**
 * Validates a `<retrieve>` payload. `ok` means the JSON is an object with a non-empty `keywords`
 * string and times that are `YYYY-MM-DD HH:MM` or null (start not after end); `json` means it
 * at least parsed as an object.
 */
export function parseRetrieveQuery(
  raw: string,
): { ok: true; query: RetrieveQuery } | { ok: false; json: boolean; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, json: false, reason: `not JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, json: false, reason: 'not a JSON object' };
  }
  const record = value as Record<string, unknown>;
  if (typeof record.keywords !== 'string' || record.keywords.trim() === '') {
    return { ok: false, json: true, reason: 'keywords must be a non-empty string' };
  }
  const times: Array<string | null> = [];
  for (const key of ['start_time', 'end_time'] as const) {
    const time = record[key] ?? null;
    if (time !== null && (typeof time !== 'string' || !RETRIEVE_TIME.test(time))) {
      return { ok: false, json: true, reason: `${key} must be "YYYY-MM-DD HH:MM" or null` };
    }
    times.push(time as string | null);
  }
  const [start = null, end = null] = times;
  // Same fixed-width format, so string order is time order.
  if (start !== null && end !== null && start > end) {
    return { ok: false, json: true, reason: 'start_time is after end_time' };
  }
  return { ok: true, query: { keywords: record.keywords, start_time: start, end_time: end } };
}

/** The answer text a content reward judges: the `<answer>` block, else the whole text minus `<think>`. */
export function extractAnswer(parsed: ParsedResponse, completion: string): string | null {
  if (parsed.answer !== null) return parsed.answer;
  if (parsed.retrieveCount > 0) return null;
  const rest = completion.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  return rest === '' ? null : rest;
}
