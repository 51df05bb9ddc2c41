import { InterpolationError } from '../errors/index.js';
import { createRng } from '../util/rng.js';
import { interpolateLocomoRecord, locomoSessionNumbers } from './locomo.js';
import type { InsertSessions, InterpolationReport } from './types.js';

type Json = Record<string, unknown>;

export interface EachConversationOptions {
  /** A LoCoMo list (`locomo10.json`). */
  host: unknown[];
  /** Generated users: conversation c gets `users[c mod users.length]` — one user per conversation. */
  users: InsertSessions[];
  seed: number;
  /** Insert after this host session in every conversation. @default a seeded draw per conversation among the gaps the sessions fit */
  position?: number;
}

/** What happened to one host conversation. */
export interface EachConversationReport extends InterpolationReport {
  conversation: number;
  /** Index of the generated user spliced in. */
  user: number;
}

/**
 * Splices one generated user into every conversation of a LoCoMo list (the default of
 * `persona-forge interpolate` for a list): conversation c gets user c mod n, after host session
 * `position` or a seeded draw among the positions whose gap fits that user's sessions, spoken by
 * the conversation's `speaker_a` (the user) and `Assistant`. Throws `InterpolationError` naming
 * the conversation when no gap fits.
 *
 * @example const { document, reports } = interpolateEachConversation({ host: locomo10, users, seed: 42 });
 */
export function interpolateEachConversation(options: EachConversationOptions): {
  document: unknown[];
  reports: EachConversationReport[];
} {
  if (options.users.length === 0) throw new InterpolationError('no generated users to insert');
  const reports: EachConversationReport[] = [];
  const document = options.host.map((record, c) => {
    const user = c % options.users.length;
    const insert = options.users[user]!;
    const numbers = locomoSessionNumbers(record as Json, `locomo host conversation ${c}`);
    const last = numbers[numbers.length - 1] ?? 0;
    const fits: Array<{ position: number; result: ReturnType<typeof interpolateLocomoRecord> }> = [];
    const candidates =
      options.position === undefined
        ? Array.from({ length: Math.max(0, last - 1) }, (_, i) => i + 1)
        : [options.position];
    for (const position of candidates) {
      try {
        fits.push({ position, result: interpolateLocomoRecord(record as Json, insert, position) });
      } catch (error) {
        if (!(error instanceof InterpolationError) || options.position !== undefined) throw error;
      }
    }
    if (fits.length === 0)
      throw new InterpolationError(
        `conversation ${c}: no gap between host sessions fits the ${insert.sessions.length} sessions of user ${user}`,
        { hint: 'insert fewer sessions (--count)' },
      );
    const chosen = createRng(options.seed, 'interpolate', 'conversation', c).pick(fits);
    reports.push({ format: 'locomo', conversation: c, user, ...chosen.result.report });
    return chosen.result.document;
  });
  return { document, reports };
}
