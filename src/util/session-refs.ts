/**
 * "session N" references in question and answer text. The rule across the project's formats:
 * "session N" names the session whose turns carry that number in the same document — `S<N>:…`
 * in a generated concept conversation and in M²A's `merged.json` (0-based `session_<N>`),
 * `D<N>:…` in a LoCoMo file (1-based `session_<N>`). Splicing and format conversion renumber the
 * references with the sessions.
 */
const SESSION_REF = /\b(session) (\d+)\b/gi;

/**
 * The session numbers a text names.
 *
 * @example sessionRefs('the photo I shared in session 3') // [3]
 */
export function sessionRefs(text: string): number[] {
  return [...text.matchAll(SESSION_REF)].map((match) => Number(match[2]));
}

/**
 * Rewrites every "session N" of a text to "session f(N)" (case of the word kept).
 *
 * @example renumberSessionRefs('in session 2', (n) => n + 5) // 'in session 7'
 */
export function renumberSessionRefs(text: string, renumber: (n: number) => number): string {
  return text.replace(SESSION_REF, (_, word: string, n: string) => `${word} ${renumber(Number(n))}`);
}

/**
 * Problems of one QA item's session references: each "session N" in its question or answer must
 * name a session that holds one of its evidence turns (`sessionOf` gives an evidence id's session
 * number, or null when it cannot tell). Returns the reasons (empty when every reference holds).
 *
 * @example sessionRefProblems('shared in session 1', '', ['S4:0'], (id) => Number(id.slice(1, 2))) // one reason
 */
export function sessionRefProblems(
  question: string,
  answer: string,
  evidence: readonly string[],
  sessionOf: (id: string) => number | null,
): string[] {
  const named = sessionRefs(`${question} ${answer}`);
  if (named.length === 0) return [];
  const held = new Set(evidence.map(sessionOf).filter((n): n is number => n !== null));
  return named
    .filter((n) => !held.has(n))
    .map((n) => `names session ${n} but its evidence is in session ${[...held].join(', ') || '(none)'}`);
}
