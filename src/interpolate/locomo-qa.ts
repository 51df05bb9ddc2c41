/**
 * Questions added to a LoCoMo host with the inserted sessions: written for the host speaker the
 * generated user became (`writeAddedQa`), and checked the way a LoCoMo annotator reads them
 * (`addedQaProblems`, `insertedBiographyProblems`). The checks read the merged record, not the
 * phrasing rules that wrote the questions: the form check knows no question template.
 */
import { MONTH_NAMES } from '../util/months.js';
import { parseLocomoTime } from './host-time.js';
import type { InsertedQa, LocomoFidelity } from './types.js';

type Json = Record<string, unknown>;

/** Pronouns of a host speaker: read from the host's own observations about them. */
export interface Pronouns {
  their: string;
  them: string;
}

/**
 * The pronouns the host's observations use for `speaker` (`"Caroline … her …"`): she/her or he/him
 * when one set clearly dominates (3:1 and at least 10 uses), else they/them.
 *
 * @example speakerPronouns(locomo10[0], 'Caroline') // { their: 'her', them: 'her' }
 */
export function speakerPronouns(record: Json, speaker: string): Pronouns {
  let female = 0;
  let male = 0;
  for (const session of Object.values((record.observation ?? {}) as Json)) {
    const facts = ((session ?? {}) as Json)[speaker];
    if (!Array.isArray(facts)) continue;
    for (const fact of facts) {
      const text = String(Array.isArray(fact) ? fact[0] : fact);
      female += text.match(/\b(she|her|hers|herself)\b/gi)?.length ?? 0;
      male += text.match(/\b(he|his|him|himself)\b/gi)?.length ?? 0;
    }
  }
  if (female >= 10 && female >= 3 * male) return { their: 'her', them: 'her' };
  if (male >= 10 && male >= 3 * female) return { their: 'his', them: 'him' };
  return { their: 'their', them: 'them' };
}

/** "8 May 2023": LoCoMo's date answer from a session time ("1:56 pm on 8 May, 2023"). */
export function locomoDate(sessionTime: string): string {
  const date = new Date(parseLocomoTime(sessionTime));
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

const sessionOf = (diaId: string): number | null => {
  const match = /^D(\d+):\d+$/.exec(diaId);
  return match === null ? null : Number(match[1]);
};

/**
 * One added question in the merged record's terms: placeholders filled with the speaker's name
 * and pronouns, evidence as dia_ids, and, for a question that says what it asks (`kind`),
 * LoCoMo's category — temporal 2 (its answer the date of the session that first says it),
 * inference 3, recall 4, combine 1 when its evidence spans sessions, else 4. A question without `kind` (an
 * M²A concept question) keeps its category.
 */
export function writeAddedQa(
  item: InsertedQa,
  evidence: string[],
  conversation: Json,
  speaker: string,
  pronouns: Pronouns,
): { question: string; answer: string; evidence: string[]; category: number } {
  const fill = (text: string) =>
    text
      .replace(/\{user\}/g, speaker)
      .replace(/\{their\}/g, pronouns.their)
      .replace(/\{them\}/g, pronouns.them);
  const sessions = [...new Set(evidence.map(sessionOf).filter((s): s is number => s !== null))].sort(
    (a, b) => a - b,
  );
  let answer = fill(item.answer);
  let category = item.category;
  if (item.kind === 'temporal') {
    category = 2;
    const time = conversation[`session_${sessions[0]}_date_time`];
    if (typeof time === 'string') answer = locomoDate(time);
  } else if (item.kind === 'inference') category = 3;
  else if (item.kind === 'recall') category = 4;
  else if (item.kind === 'combine') category = sessions.length > 1 ? 1 : 4;
  return { question: fill(item.question), answer, evidence, category };
}

/** Words that make a question the user's own or a multiple-choice one. */
const FIRST_OR_SECOND_PERSON = /\b(I|I'm|I'd|I've|me|my|mine|myself|you|your|yours|we|us|our)\b/i;
const NEEDS_OPTIONS =
  /\b(which of (these|the following|them)|which one|the options?|choose|pick one)\b|\([a-d]\)/i;

/** One added question's problems (empty when a LoCoMo annotator would accept its form and label). */
export function addedQaProblems(
  qa: { question: string; answer: unknown; evidence: unknown[]; category: number },
  conversation: Json,
  speaker: string,
): Array<{ kind: 'form' | 'category' | 'evidence'; message: string }> {
  const problems: Array<{ kind: 'form' | 'category' | 'evidence'; message: string }> = [];
  const question = qa.question.trim();
  const sentences = question.split(/(?<=[.?!])\s+/).filter(Boolean);
  if (sentences.length !== 1 || !question.endsWith('?'))
    problems.push({
      kind: 'form',
      message: 'not one question sentence (a situation line or a follow-up around it)',
    });
  if (FIRST_OR_SECOND_PERSON.test(question) || FIRST_OR_SECOND_PERSON.test(String(qa.answer)))
    problems.push({ kind: 'form', message: 'first or second person: LoCoMo asks about a named speaker' });
  if (NEEDS_OPTIONS.test(question))
    problems.push({ kind: 'form', message: 'asks among options LoCoMo does not give' });
  if (!new RegExp(`\\b${speaker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(question))
    problems.push({ kind: 'form', message: `does not name the speaker it asks about (${speaker})` });
  // Evidence: host-form dia_ids of turns the speaker says in the merged record.
  const turns = new Map<string, Json>();
  for (const [key, value] of Object.entries(conversation))
    if (/^session_\d+$/.test(key) && Array.isArray(value))
      for (const turn of value as Json[]) turns.set(String(turn.dia_id), turn);
  const sessions = new Set<number>();
  for (const id of qa.evidence) {
    const turn = typeof id === 'string' ? turns.get(id) : undefined;
    if (turn === undefined)
      problems.push({ kind: 'evidence', message: `${String(id)} is no turn of the record` });
    else if (turn.speaker !== speaker)
      problems.push({
        kind: 'evidence',
        message: `${String(id)} is said by ${String(turn.speaker)}, not ${speaker}`,
      });
    else sessions.add(sessionOf(String(id))!);
  }
  if (qa.evidence.length === 0) problems.push({ kind: 'evidence', message: 'no evidence' });
  // Category: what the question asks and where its evidence lies.
  const asksDate = /^(when|on what date|in which month|what date)\b/i.test(question);
  const dates = [...sessions]
    .map((s) => conversation[`session_${s}_date_time`])
    .filter((t) => typeof t === 'string');
  const answerIsSessionDate = dates.some((time) => locomoDate(time as string) === String(qa.answer));
  if (qa.category === 2 && !(asksDate && answerIsSessionDate))
    problems.push({
      kind: 'category',
      message: 'temporal (2) but not a "when" question answered by its session date',
    });
  if (qa.category !== 2 && asksDate)
    problems.push({ kind: 'category', message: 'asks "when" but is not temporal (2)' });
  if (qa.category === 1 && sessions.size < 2)
    problems.push({ kind: 'category', message: 'multi-hop (1) with evidence in one session' });
  if (qa.category === 4 && sessions.size > 1)
    problems.push({ kind: 'category', message: 'single-hop (4) with evidence in several sessions' });
  if (qa.category === 3 && !/\b(would|likely|might|could)\b/i.test(question))
    problems.push({ kind: 'category', message: 'open-domain (3) but asks for nothing beyond what was said' });
  if (![1, 2, 3, 4].includes(qa.category))
    problems.push({ kind: 'category', message: `category ${qa.category} for an answerable question` });
  return problems;
}

/**
 * Inserted turns that say the generated person's own biography (`facts`: occupation, city,
 * education, family) — under the host speaker's name it is another person's life.
 */
export function insertedBiographyProblems(
  conversation: Json,
  numbers: readonly number[],
  facts: readonly string[],
): Array<{ path: string; value: string }> {
  const problems: Array<{ path: string; value: string }> = [];
  const wanted = facts.map((fact) => fact.toLowerCase().trim()).filter((fact) => fact.length > 2);
  for (const number of numbers) {
    const turns = conversation[`session_${number}`];
    if (!Array.isArray(turns)) continue;
    (turns as Json[]).forEach((turn, t) => {
      const text = String(turn.text ?? '').toLowerCase();
      const said = wanted.find((fact) => text.includes(fact));
      if (said !== undefined)
        problems.push({ path: `conversation.session_${number}[${t}].text`, value: said });
    });
  }
  return problems;
}

/**
 * Inserted turns naming one of the host's other speakers: the inserted sessions are the user and
 * their assistant, so a person of the generated user's life who shares that name would have
 * their facts read as the host speaker's.
 */
export function insertedOtherSpeakerProblems(
  conversation: Json,
  numbers: readonly number[],
  others: readonly string[],
): Array<{ path: string; value: string }> {
  const problems: Array<{ path: string; value: string }> = [];
  const names = others.filter((name) => name.trim() !== '' && name !== 'Assistant');
  for (const number of numbers) {
    const turns = conversation[`session_${number}`];
    if (!Array.isArray(turns)) continue;
    (turns as Json[]).forEach((turn, t) => {
      const text = String(turn.text ?? '');
      const named = names.find((name) =>
        new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text),
      );
      if (named !== undefined)
        problems.push({ path: `conversation.session_${number}[${t}].text`, value: named });
    });
  }
  return problems;
}

/** The report's figures for one merged record (each a defect count with target 0). */
export function locomoFidelity(
  added: ReadonlyArray<{ question: string; answer: unknown; evidence: unknown[]; category: number }>,
  conversation: Json,
  speaker: string,
  inserted: { turns: number; biography: number; speaker: number },
): LocomoFidelity {
  const kinds = added.map((qa) => new Set(addedQaProblems(qa, conversation, speaker).map((p) => p.kind)));
  const count = (kind: 'form' | 'category' | 'evidence') => kinds.filter((set) => set.has(kind)).length;
  return {
    added_question_form: { count: count('form'), of: added.length, target: 0 },
    added_question_category: { count: count('category'), of: added.length, target: 0 },
    added_question_evidence: { count: count('evidence'), of: added.length, target: 0 },
    inserted_biography_turns: { count: inserted.biography, of: inserted.turns, target: 0 },
    inserted_speaker_errors: { count: inserted.speaker, of: inserted.turns, target: 0 },
  };
}
