import { InterpolationError } from '../errors/index.js';
import { type DialogueSession, type Turn, UserDialogue } from '../schemas/dialogue.js';
import { orderWarnings } from './dia-id.js';
import { placeSessions } from './times.js';
import type { InsertSessions, InterpolationReport } from './types.js';

/**
 * Splices sessions into a native `UserDialogue` after host session `position` (1-based count).
 * What changes: each later host session's `index` (+N) and its turns' `id`
 * (`<userId>:S<index>:T<turn>`); every other turn field is unchanged. Inserted sessions are
 * moved to τ_j (turn times keep their offsets from the session start), get the host's user id
 * in their turn ids, and behaviors are kept as they are.
 *
 * @example const { document } = interpolateNative(dialogue, insert, 4);
 */
export function interpolateNative(
  hostInput: unknown,
  insert: InsertSessions,
  position: number,
): { document: UserDialogue; report: Omit<InterpolationReport, 'format'> } {
  const host = UserDialogue.parse(hostInput);
  const count = host.sessions.length;
  if (!Number.isInteger(position) || position < 1 || position >= count) {
    throw new InterpolationError(
      `position ${position} is outside the host's sessions: it must be in [1, ${count - 1}]`,
    );
  }
  const before = host.sessions[position - 1]!;
  const after = host.sessions[position]!;
  const durations = insert.sessions.map(
    (s) => Date.parse(s.turns[s.turns.length - 1]!.time) - Date.parse(s.turns[0]!.time),
  );
  const starts = placeSessions(Date.parse(before.end), Date.parse(after.start), durations);
  const n = insert.sessions.length;
  const renumber = (session: DialogueSession, index: number, shiftMs = 0): DialogueSession => {
    const turns = session.turns.map(
      (turn): Turn => ({
        ...turn,
        id: `${host.userId}:S${index}:T${turn.index}`,
        ...(shiftMs === 0 ? {} : { time: new Date(Date.parse(turn.time) + shiftMs).toISOString() }),
      }),
    );
    return { ...session, index, start: turns[0]!.time, end: turns[turns.length - 1]!.time, turns };
  };
  const inserted = insert.sessions.map((session, j) =>
    renumber(session, position + j, starts[j]! - Date.parse(session.turns[0]!.time)),
  );
  const sessions = [
    ...host.sessions.slice(0, position),
    ...inserted,
    ...host.sessions.slice(position).map((session, k) => renumber(session, position + n + k)),
  ];
  const renumbered: Record<string, number> = {};
  for (let s = position + 1; s <= count; s++) renumbered[String(s)] = s + n;
  return {
    document: { ...host, sessions },
    report: {
      position,
      inserted: n,
      times: starts.map((ms) => new Date(ms).toISOString()),
      hostSessions: count,
      mergedSessions: count + n,
      renumbered,
      qaRemapped: 0,
      qaAdded: 0,
      warnings: orderWarnings(
        sessions.flatMap((session) =>
          session.turns.map((turn) => ({ label: turn.id, ms: Date.parse(turn.time) })),
        ),
      ),
    },
  };
}
