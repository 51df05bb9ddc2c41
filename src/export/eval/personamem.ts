import { join } from 'node:path';
import type { ExportConfig } from '../../schemas/export-config.js';
import { writeFileAtomic } from '../../util/fs.js';
import { sha256, stableStringify } from '../../util/hash.js';
import { optionLabel } from '../time-format.js';
import type { EvalSource } from './common.js';
import {
  type PlacedQuestion,
  personaMemMessages,
  personaMemTargets,
  placeQuestions,
} from './personamem-context.js';

/** The columns of PersonaMem's `questions_*.csv`, in order (FORMATS.md §4). */
export const PERSONAMEM_COLUMNS = [
  'persona_id',
  'question_id',
  'question_type',
  'topic',
  'context_length_in_tokens',
  'context_length_in_letters',
  'distance_to_ref_in_blocks',
  'distance_to_ref_in_tokens',
  'num_irrelevant_tokens',
  'distance_to_ref_proportion_in_context',
  'user_question_or_message',
  'correct_answer',
  'all_options',
  'shared_context_id',
  'end_index_in_shared_context',
] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break; quotes doubled. */
export function csvField(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Python `repr` of a string (single quotes unless the text has one and no double quote), so
 * `all_options` parses with `ast.literal_eval` like the original CSV.
 *
 * @example pythonRepr("it's") // "\"it's\""
 */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const char of text) {
    if (char === '\\') out += '\\\\';
    else if (char === quote) out += `\\${quote}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else out += char;
  }
  return `${quote}${out}${quote}`;
}

/** A name-based UUID (version 5 layout over sha256) for a question: stable across runs. */
export function questionUuid(userId: string, qaId: string): string {
  const hex = sha256(`personamem\u0000${userId}\u0000${qaId}`).slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * One user's share of PersonaMem: its shared contexts (jsonl lines) and its `questions.csv` rows
 * without their first field (the persona index, given in the order users are added).
 */
export interface PersonaMemUser {
  contexts: string[];
  rows: string[];
  /** Questions left out, per reason (`placeQuestions`). */
  leftOut: PersonaMemLeftOut;
}

/** PersonaMem questions left out because no context of the real file's length holds them. */
export interface PersonaMemLeftOut {
  /** The history before the question is shorter than the range's shortest context. */
  historyTooShort: number;
  /** Its evidence sessions with the question's own session exceed the range's longest context. */
  evidenceTooFar: number;
}

/**
 * A user's PersonaMem part (null when the user has no target; no rows when every question is left
 * out): built where the user is read (a worker thread), written by `createPersonaMemWriter`. Each
 * question sees a window of the user's own sessions (blocks) ending where it is asked, as close to
 * `eval.personamemContextTokens` as the history allows (`personamem-context.ts`); questions with
 * the same window share one context
 * `{id: messages}` (the persona as system message, then `User: …` / assistant turns). Token
 * columns are counted with gpt-tokenizer.
 *
 * @example personaMemUser(bundle, config)?.rows.length
 */
export function personaMemUser(bundle: EvalSource, config: ExportConfig): PersonaMemUser | null {
  const targets = personaMemTargets(bundle, config);
  if (targets.length === 0) return null;
  const history = personaMemMessages(bundle);
  const { placed, leftOut } = placeQuestions(
    bundle,
    history,
    targets,
    config.eval.personamemContextTokens,
    config.eval.personamemContextRange,
  );
  const part: PersonaMemUser = {
    contexts: [],
    rows: [],
    leftOut: {
      historyTooShort: leftOut.filter((q) => q.reason === 'history-too-short').length,
      evidenceTooFar: leftOut.filter((q) => q.reason === 'evidence-too-far').length,
    },
  };
  // One shared context per window opening (every part but the last, and where the last starts),
  // running to the last question asked in it.
  const opening = (p: PlacedQuestion) => JSON.stringify([...p.parts.slice(0, -1), p.parts.at(-1)![0]]);
  const ids = new Map<string, string>();
  for (const key of [...new Set(placed.map(opening))]) {
    const group = placed.filter((p) => opening(p) === key);
    const last = Math.max(...group.map((p) => p.end));
    const parts = [...group[0]!.parts.slice(0, -1), [group[0]!.parts.at(-1)![0], last] as const];
    const messages = [history[0]!, ...parts.flatMap(([from, to]) => history.slice(from, to))].map(
      ({ role, content }) => ({ role, content }),
    );
    const id = sha256(stableStringify(messages));
    ids.set(key, id);
    part.contexts.push(JSON.stringify({ [id]: messages }));
  }
  for (const question of placed) {
    const { qa, parts, ref, tokens } = question;
    const indexes = parts.flatMap(([from, to]) => Array.from({ length: to - from }, (_, k) => from + k));
    const window = [history[0]!, ...indexes.map((i) => history[i]!)];
    const letters = window.reduce((sum, m) => sum + m.content.length, 0);
    const irrelevant = window.reduce((sum, m) => sum + (m.noise ? m.tokens : 0), 0);
    const after = indexes.filter((i) => i >= ref);
    const distanceTokens = after.reduce((sum, i) => sum + history[i]!.tokens, 0);
    // Blocks (sessions) of the window after the one holding the latest evidence.
    const refSession = ref < history.length ? history[ref]!.session : Number.POSITIVE_INFINITY;
    const blocks = new Set(indexes.map((i) => history[i]!.session).filter((session) => session > refSession))
      .size;
    const options = qa.choices.map((choice, i) => `${optionLabel(i)} ${choice}`);
    // The published kinds: an integer persona id (added by the writer) and a UUID per question
    // (deterministic here).
    const values: Array<string | number> = [
      questionUuid(bundle.plan.userId, qa.id),
      qa.task,
      qa.group,
      tokens,
      letters,
      blocks,
      distanceTokens,
      irrelevant,
      `${tokens === 0 ? '0.00' : ((distanceTokens / tokens) * 100).toFixed(2)}%`,
      qa.question,
      optionLabel(qa.correctIndex ?? 0),
      `[${options.map(pythonRepr).join(', ')}]`,
      ids.get(opening(question))!,
      // Index in the shared context: the persona message, then the window's messages.
      1 + indexes.length,
    ];
    part.rows.push(values.map(csvField).join(','));
  }
  return part;
}

/**
 * Writes PersonaMem's `questions.csv` and `shared_contexts.jsonl` from user parts (see
 * `personaMemUser`), numbering personas with rows in the order their parts are added. `finish`
 * counts the questions left out per reason once any user had a PersonaMem question.
 *
 * @example const writer = createPersonaMemWriter(dir); writer.addUser(personaMemUser(bundle, config)); await writer.finish();
 */
export function createPersonaMemWriter(dir: string) {
  const rows: string[] = [PERSONAMEM_COLUMNS.join(',')];
  const contexts: string[] = [];
  let personas = 0;
  let leftOut: PersonaMemLeftOut | null = null;
  return {
    addUser(part: PersonaMemUser | null): void {
      if (part === null) return;
      leftOut ??= { historyTooShort: 0, evidenceTooFar: 0 };
      leftOut.historyTooShort += part.leftOut.historyTooShort;
      leftOut.evidenceTooFar += part.leftOut.evidenceTooFar;
      if (part.rows.length === 0) return;
      const personaIndex = csvField(personas++);
      contexts.push(...part.contexts);
      for (const row of part.rows) rows.push(`${personaIndex},${row}`);
    },
    async finish(): Promise<{ questions: number; contexts: number; leftOut?: PersonaMemLeftOut }> {
      await writeFileAtomic(join(dir, 'questions.csv'), `${rows.join('\n')}\n`);
      await writeFileAtomic(
        join(dir, 'shared_contexts.jsonl'),
        contexts.length === 0 ? '' : `${contexts.join('\n')}\n`,
      );
      const written = { questions: rows.length - 1, contexts: contexts.length };
      return leftOut === null ? written : { ...written, leftOut };
    },
  };
}
