import { InputError, InterpolationError } from '../errors/index.js';
import type { DialogueSession } from '../schemas/dialogue.js';
import { orderWarnings } from './dia-id.js';
import { formatPlainTime, parsePlainTime } from './host-time.js';
import { placeSessions } from './times.js';
import type { InsertSessions, InterpolationReport } from './types.js';

type Json = Record<string, unknown>;
interface Round extends Json {
  time: string;
  user: string;
  assistant: string;
}

/**
 * Pairs a native session's turns into PersonaVLM rounds `{time, user, assistant}` (`<image>` →
 * `<img>`, the placeholder PersonaVLM uses). Time = the user turn's time, shifted to `start`.
 */
function toRounds(
  session: DialogueSession,
  start: number,
  seconds: boolean,
): Array<{ round: Round; images: string[] }> {
  const offset = start - Date.parse(session.turns[0]!.time);
  const rounds = new Map<number, { round: Round; images: string[] }>();
  for (const turn of session.turns) {
    let entry = rounds.get(turn.round);
    if (entry === undefined) {
      entry = {
        round: { time: formatPlainTime(Date.parse(turn.time) + offset, seconds), user: '', assistant: '' },
        images: [],
      };
      rounds.set(turn.round, entry);
    }
    const text = turn.text.replace(/<image>/g, '<img>');
    if (turn.speaker === 'user') {
      entry.round.user = entry.round.user === '' ? text : `${entry.round.user}\n${text}`;
      entry.images.push(...turn.images);
    } else entry.round.assistant = entry.round.assistant === '' ? text : `${entry.round.assistant}\n${text}`;
  }
  return [...rounds.values()];
}

/**
 * Splices sessions into a PersonaVLM `user_data.json` (`profile`, `sessions` = list of lists of
 * `{time, user, assistant}`, `imgs`; FORMATS.md §7). Host rounds are kept as the same objects
 * (unchanged); the inserted sessions go after host session `position` (1-based) and their image
 * paths are inserted into `imgs` at the index that keeps `imgs` in placeholder order. PersonaVLM
 * rounds carry no ids, so nothing is renumbered. Minute resolution (seconds if the host uses them).
 *
 * @example const { document } = interpolatePersonaVlm(userData, insert, 2);
 */
export function interpolatePersonaVlm(
  host: Json,
  insert: InsertSessions,
  position: number,
): { document: Json; report: Omit<InterpolationReport, 'format'> } {
  const sessions = host.sessions;
  if (!Array.isArray(sessions) || sessions.some((s) => !Array.isArray(s) || s.length === 0)) {
    throw new InputError(
      'personavlm host',
      '"sessions" must be a list of non-empty lists of {time, user, assistant}',
      { field: 'sessions' },
    );
  }
  const hostSessions = sessions as Round[][];
  if (!Number.isInteger(position) || position < 1 || position >= hostSessions.length) {
    throw new InterpolationError(
      `position ${position} is outside the host's sessions: it must be in [1, ${hostSessions.length - 1}]`,
    );
  }
  const before = hostSessions[position - 1]!;
  const after = hostSessions[position]!;
  const seconds = /:\d{2}:\d{2}$/.test(String(before[0]!.time));
  const durations = insert.sessions.map(
    (s) => Date.parse(s.turns[s.turns.length - 1]!.time) - Date.parse(s.turns[0]!.time),
  );
  const starts = placeSessions(
    parsePlainTime(before[before.length - 1]!.time),
    parsePlainTime(after[0]!.time),
    durations,
    seconds ? 1000 : 60_000,
  );

  const images = new Map((insert.images ?? []).map((image) => [image.id, image]));
  const inserted = insert.sessions.map((session, j) => toRounds(session, starts[j]!, seconds));
  // imgs are listed in placeholder order: new paths go after those of the sessions before.
  const countImgs = (rounds: Round[]): number =>
    rounds.reduce((sum, round) => sum + (String(round.user).match(/<img>/g)?.length ?? 0), 0);
  const imgIndex = hostSessions.slice(0, position).reduce((sum, session) => sum + countImgs(session), 0);
  const newImgs = inserted.flatMap((rounds) =>
    rounds.flatMap((entry) => entry.images.map((id) => images.get(id)?.path ?? id)),
  );
  const imgs = Array.isArray(host.imgs)
    ? [...host.imgs.slice(0, imgIndex), ...newImgs, ...host.imgs.slice(imgIndex)]
    : newImgs;

  const document: Json = {};
  for (const [key, value] of Object.entries(host)) {
    if (key === 'sessions')
      document[key] = [
        ...hostSessions.slice(0, position),
        ...inserted.map((rounds) => rounds.map((entry) => entry.round)),
        ...hostSessions.slice(position),
      ];
    else if (key === 'imgs') document[key] = imgs;
    else document[key] = value;
  }
  if (!('imgs' in host) && newImgs.length > 0) document.imgs = imgs;
  const merged = document.sessions as Round[][];
  const warnings = orderWarnings(
    merged.flatMap((rounds, s) =>
      rounds.map((round, r) => ({ label: `sessions[${s}][${r}].time`, ms: parsePlainTime(round.time) })),
    ),
  );
  const renumbered: Record<string, number> = {};
  for (let s = position + 1; s <= hostSessions.length; s++)
    renumbered[String(s)] = s + insert.sessions.length;
  return {
    document,
    report: {
      position,
      inserted: insert.sessions.length,
      times: starts.map((ms) => new Date(ms).toISOString()),
      hostSessions: hostSessions.length,
      mergedSessions: hostSessions.length + insert.sessions.length,
      renumbered,
      qaRemapped: 0,
      qaAdded: 0,
      warnings,
    },
  };
}
