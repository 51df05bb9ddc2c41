import { InputError, InterpolationError } from '../errors/index.js';
import type { Turn } from '../schemas/dialogue.js';
import { renumberSessionRefs } from '../util/session-refs.js';
import { type EvidenceWarning, orderWarnings, parseEvidence } from './dia-id.js';
import { formatLocomoTime, parseLocomoTime } from './host-time.js';
import {
  insertedBiographyProblems,
  insertedOtherSpeakerProblems,
  locomoFidelity,
  speakerPronouns,
  writeAddedQa,
} from './locomo-qa.js';
import { defaultSpeakers, hostSpeakers, insertedSpeakerProblems, renameUser } from './speakers.js';
import { placeSessions } from './times.js';
import type { InsertSessions, InterpolationReport } from './types.js';

type Json = Record<string, unknown>;
const SESSION_KEY = /^session_(\d+)$/;
const DATE_KEY = /^session_(\d+)_date_time$/;
const DIA = /D(\d+):(\d+)/g;

/** Number of host sessions with content (`session_<n>` arrays) in a LoCoMo record. */
export function locomoSessionNumbers(record: Json, where = 'locomo host'): number[] {
  const conversation = (record as Json | null)?.conversation as Json | undefined;
  if (
    record === null ||
    typeof record !== 'object' ||
    conversation === null ||
    typeof conversation !== 'object'
  )
    throw new InputError(where, 'record has no "conversation" object', {
      hint: 'a LoCoMo host is a list of {sample_id, conversation: {speaker_a, speaker_b, session_1, session_1_date_time, …}, qa} records (like locomo10.json)',
    });
  return Object.keys(conversation)
    .map((key) => SESSION_KEY.exec(key))
    .filter((match) => match !== null && Array.isArray(conversation[match[0]]))
    .map((match) => Number(match![1]))
    .sort((a, b) => a - b);
}

function renameKey(
  key: string,
  pattern: RegExp,
  shift: (n: number) => number,
  template: (n: number) => string,
): string {
  const match = pattern.exec(key);
  return match === null ? key : template(shift(Number(match[1])));
}

/**
 * Splices sessions into one LoCoMo record (`locomo10.json` item, FORMATS.md §1) after host
 * session `position`. What changes, exactly:
 * - session keys `session_<n>`, `session_<n>_date_time`, `session_<n>_observation`,
 *   `session_<n>_summary`, `events_session_<n>` for n > position are renumbered n + N;
 * - every host turn keeps all fields and values except `dia_id`, whose session number is
 *   renumbered the same way (key order kept);
 * - dia_ids inside observations are rewritten in place (strings, lists, comma lists);
 * - QA `evidence` lists are remapped; strings holding several ids are split into separate ids;
 *   malformed ids are kept unchanged; both are reported in `warnings`;
 * - N new sessions are inserted (`session_<position+j>` at τ_j, turns `{speaker, dia_id, text}`
 *   plus `img_url`/`blip_caption` for image turns, `<image>` placeholders removed from text),
 *   spoken by `speakers` (default: the user as the host's `speaker_a`, the assistant as
 *   `Assistant`, never the host's other speaker), the generated user's own name
 *   (`insert.userName`) rewritten as their host speaker's; `speaker` warnings if not;
 * - QA of the inserted sessions, if any, is appended, its "session k" renumbered to the merged
 *   session number (`position + k + 1`).
 * Everything else (speakers, dates inside event summaries, summaries' text) is unchanged.
 *
 * @example const { document, report } = interpolateLocomoRecord(record, insert, 3, speakers);
 */
export function interpolateLocomoRecord(
  record: Json,
  insert: InsertSessions,
  position: number,
  speakers?: { user: string; assistant: string },
): { document: Json; report: Omit<InterpolationReport, 'format'> } {
  const conversation = record.conversation as Json | undefined;
  if (conversation === undefined || typeof conversation !== 'object')
    throw new InputError('locomo host', 'record has no "conversation" object');
  const numbers = locomoSessionNumbers(record);
  const n = insert.sessions.length;
  const last = numbers[numbers.length - 1] ?? 0;
  if (!Number.isInteger(position) || position < 1 || position >= last) {
    throw new InterpolationError(
      `position ${position} is outside the host's sessions: it must be in [1, ${last - 1}]`,
      { hint: 'pass --position between 1 and the number of host sessions minus one' },
    );
  }
  const startText = conversation[`session_${position}_date_time`];
  const endText = conversation[`session_${position + 1}_date_time`];
  if (typeof startText !== 'string' || typeof endText !== 'string')
    throw new InputError('locomo host', `session ${position} or ${position + 1} has no date_time`);
  const durations = insert.sessions.map(
    (s) => Date.parse(s.turns[s.turns.length - 1]!.time) - Date.parse(s.turns[0]!.time),
  );
  const starts = placeSessions(parseLocomoTime(startText), parseLocomoTime(endText), durations, 60_000);

  const shift = (s: number): number => (s > position ? s + n : s);
  const warnings: EvidenceWarning[] = [];
  const hostIds = new Set<string>();
  const remapDia = (value: string): string =>
    value.replace(DIA, (_, s: string, t: string) => `D${shift(Number(s))}:${t}`);

  // Conversation: renamed keys in the original order, new sessions right after session `position`.
  const keys = Object.keys(conversation);
  const anchor = Math.max(keys.indexOf(`session_${position}`), keys.indexOf(`session_${position}_date_time`));
  const names = speakers ?? defaultSpeakers(conversation);
  const images = new Map((insert.images ?? []).map((image) => [image.id, image]));
  const turnIds = new Map<string, string>();
  const merged: Json = {};
  keys.forEach((key, index) => {
    const value = conversation[key];
    const sessionMatch = SESSION_KEY.exec(key);
    if (sessionMatch !== null && Array.isArray(value)) {
      merged[`session_${shift(Number(sessionMatch[1]))}`] = value.map((turn: Json, t) => {
        const id = turn.dia_id;
        if (typeof id !== 'string' || !/^D\d+:\d+$/.test(id)) {
          warnings.push({
            path: `conversation.${key}[${t}].dia_id`,
            value: String(id),
            kind: 'malformed',
            message: 'host turn dia_id is malformed; kept unchanged',
          });
          return turn;
        }
        hostIds.add(id);
        return { ...turn, dia_id: remapDia(id) };
      });
    } else merged[renameKey(key, DATE_KEY, shift, (m) => `session_${m}_date_time`)] = value;
    if (index === anchor) {
      insert.sessions.forEach((session, j) => {
        const number = position + j + 1;
        merged[`session_${number}_date_time`] = formatLocomoTime(starts[j]!);
        merged[`session_${number}`] = session.turns.map((turn: Turn, t) => {
          const diaId = `D${number}:${t + 1}`;
          turnIds.set(turn.id, diaId);
          const out: Json = {
            speaker: turn.speaker === 'user' ? names.user : names.assistant,
            dia_id: diaId,
            text: renameUser(turn.text.replace(/<image>\s*/g, '').trim(), insert.userName, names.user),
          };
          if (turn.images.length > 0) {
            out.img_url = turn.images.map((id) => images.get(id)?.path ?? id);
            out.blip_caption = turn.images.map((id) => images.get(id)?.caption ?? id).join('; ');
          }
          return out;
        });
      });
    }
  });

  const renameSections = (
    section: unknown,
    pattern: RegExp,
    template: (m: number) => string,
    mapValue: (v: unknown, path: string) => unknown,
  ): unknown => {
    if (section === null || typeof section !== 'object') return section;
    const out: Json = {};
    for (const [key, value] of Object.entries(section as Json))
      out[renameKey(key, pattern, shift, template)] = mapValue(value, key);
    return out;
  };
  const remapDeep = (value: unknown): unknown =>
    typeof value === 'string'
      ? remapDia(value)
      : Array.isArray(value)
        ? value.map(remapDeep)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapDeep(v)]))
          : value;
  const observation = renameSections(
    record.observation,
    /^session_(\d+)_observation$/,
    (m) => `session_${m}_observation`,
    (value) =>
      // Observations are [fact, dia_id(s)] pairs: rewrite only the id part, never the fact text.
      value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value as Json).map(([speaker, facts]) => [
              speaker,
              Array.isArray(facts)
                ? facts.map((fact) =>
                    Array.isArray(fact) ? [fact[0], ...fact.slice(1).map(remapDeep)] : fact,
                  )
                : facts,
            ]),
          )
        : value,
  );
  const sessionSummary = renameSections(
    record.session_summary,
    /^session_(\d+)_summary$/,
    (m) => `session_${m}_summary`,
    (v) => v,
  );
  const eventSummary = renameSections(
    record.event_summary,
    /^events_session_(\d+)$/,
    (m) => `events_session_${m}`,
    (v) => v,
  );

  let qaRemapped = 0;
  const qa = Array.isArray(record.qa)
    ? (record.qa as Json[]).map((item, q) => {
        if (!Array.isArray(item.evidence)) return item;
        qaRemapped++;
        const evidence: unknown[] = [];
        item.evidence.forEach((value: unknown, e: number) => {
          const path = `qa[${q}].evidence[${e}]`;
          if (typeof value !== 'string') {
            warnings.push({
              path,
              value: String(value),
              kind: 'malformed',
              message: 'evidence is not a string; kept unchanged',
            });
            evidence.push(value);
            return;
          }
          const parsed = parseEvidence(value);
          if (parsed.kind === 'malformed') {
            warnings.push({
              path,
              value,
              kind: 'malformed',
              message: 'not a D<session>:<turn> id; kept unchanged',
            });
            evidence.push(value);
            return;
          }
          if (parsed.kind === 'split')
            warnings.push({
              path,
              value,
              kind: 'split',
              message: `several ids in one string; split into ${parsed.ids.length} remapped ids`,
            });
          for (const id of parsed.ids) {
            const original = `D${id.session}:${id.turn}`;
            if (!hostIds.has(original))
              warnings.push({
                path,
                value: original,
                kind: 'dangling',
                message: 'no host turn has this id; remapped anyway',
              });
            evidence.push(`D${shift(id.session)}:${id.turn}`);
          }
        });
        return { ...item, evidence };
      })
    : record.qa;
  // "session k" (k-th inserted session, 0-based) → the merged record's session_<position + k + 1>.
  const merge = (k: number) => position + k + 1;
  // Questions written as LoCoMo asks are filled in for the speaker the user became.
  const pronouns = speakerPronouns(record, names.user);
  const added = (insert.qa ?? []).map((item) =>
    writeAddedQa(
      {
        ...item,
        question: renumberSessionRefs(item.question, merge),
        answer: renumberSessionRefs(item.answer, merge),
      },
      item.evidence.map((id) => turnIds.get(id) ?? id),
      merged,
      names.user,
      pronouns,
    ),
  );

  const document: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'conversation') document[key] = merged;
    else if (key === 'observation') document[key] = observation;
    else if (key === 'session_summary') document[key] = sessionSummary;
    else if (key === 'event_summary') document[key] = eventSummary;
    else if (key === 'qa') document[key] = Array.isArray(qa) ? [...qa, ...added] : qa;
    else document[key] = value;
  }
  const renumbered: Record<string, number> = {};
  for (const number of numbers) if (number > position) renumbered[String(number)] = number + n;
  const timeline = Object.keys(merged)
    .map((key) => DATE_KEY.exec(key))
    .filter((match) => match !== null)
    .map((match) => ({ number: Number(match![1]), text: merged[match![0]] }))
    .filter((entry): entry is { number: number; text: string } => typeof entry.text === 'string')
    .sort((a, b) => a.number - b.number)
    .map((entry) => ({ label: `session_${entry.number}_date_time`, ms: parseLocomoTime(entry.text) }));
  warnings.push(...orderWarnings(timeline));
  const insertedNumbers = insert.sessions.map((_, j) => position + j + 1);
  const speakerProblems = insertedSpeakerProblems(
    merged,
    insertedNumbers,
    insert.sessions,
    names,
    insert.userName,
  );
  warnings.push(...speakerProblems);
  const biography = insertedBiographyProblems(merged, insertedNumbers, insert.userFacts ?? []);
  for (const problem of biography)
    warnings.push({
      ...problem,
      kind: 'speaker',
      message: `says the generated person's own "${problem.value}" under ${names.user}'s name`,
    });
  const others = hostSpeakers(merged).filter((name) => name !== names.user);
  const otherNamed = insertedOtherSpeakerProblems(merged, insertedNumbers, others);
  for (const problem of otherNamed)
    warnings.push({
      ...problem,
      kind: 'speaker',
      message: `an inserted turn names the host's other speaker ${problem.value}`,
    });
  const fidelity = locomoFidelity(
    added.filter((_, i) => insert.qa?.[i]?.kind !== undefined),
    merged,
    names.user,
    {
      turns: insert.sessions.reduce((sum, session) => sum + session.turns.length, 0),
      biography: biography.length,
      speaker: new Set(
        [...speakerProblems.filter((p) => p.path.startsWith('conversation.')), ...otherNamed].map((p) =>
          p.path.replace(/\.(speaker|text)$/, ''),
        ),
      ).size,
    },
  );
  return {
    document,
    report: {
      position,
      inserted: n,
      times: starts.map((ms) => new Date(ms).toISOString()),
      hostSessions: numbers.length,
      mergedSessions: numbers.length + n,
      renumbered,
      qaRemapped,
      qaAdded: added.length,
      warnings,
      speakers: names,
      fidelity,
    },
  };
}
