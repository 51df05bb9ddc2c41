import { join } from 'node:path';
import type { ExportConfig } from '../../schemas/export-config.js';
import { writeFileAtomic } from '../../util/fs.js';
import { sha256, stableStringify } from '../../util/hash.js';
import type { ExportBundle } from '../read-run.js';
import { optionLabel } from '../time-format.js';
import { evidenceTurns, stripImagePlaceholders } from './common.js';

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

/**
 * Writes `eval/personamem/questions.csv` and `shared_contexts.jsonl` (one `{id: messages}` line
 * per user: the persona as system message, then `User: …` / assistant turns). Token columns are
 * estimates: characters ÷ `charsPerToken`; blocks are sessions.
 *
 * @example const writer = createPersonaMemWriter(dir, config); await writer.addUser(bundle); await writer.finish();
 */
/** A name-based UUID (version 5 layout over sha256) for a question: stable across runs. */
export function questionUuid(userId: string, qaId: string): string {
  const hex = sha256(`personamem\u0000${userId}\u0000${qaId}`).slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function createPersonaMemWriter(dir: string, config: ExportConfig) {
  const rows: string[] = [PERSONAMEM_COLUMNS.join(',')];
  const contexts: string[] = [];
  const tokens = (letters: number) => Math.ceil(letters / config.eval.charsPerToken);
  let personas = 0;
  return {
    addUser(bundle: ExportBundle): void {
      const targets = bundle.plan.qa.filter(
        (qa) =>
          (config.eval.allFamiliesInEachFormat || qa.family === 'personamem') &&
          qa.answerType === 'mc' &&
          qa.correctIndex !== null,
      );
      if (targets.length === 0) return;
      const personaIndex = personas++;
      const persona = bundle.plan.enriched.persona;
      const messages: Array<{ role: string; content: string }> = [
        {
          role: 'system',
          content: `Current user persona: Name: ${persona.name}. ${bundle.plan.enriched.roleDescription}`,
        },
      ];
      const meta: Array<{ time: number; session: number; noise: boolean }> = [
        { time: Number.NEGATIVE_INFINITY, session: -1, noise: false },
      ];
      const position = new Map<string, number>();
      bundle.dialogue.sessions.forEach((session, s) => {
        for (const turn of session.turns) {
          position.set(turn.id, messages.length);
          const text = stripImagePlaceholders(turn.text);
          messages.push({ role: turn.speaker, content: turn.speaker === 'user' ? `User: ${text}` : text });
          meta.push({ time: Date.parse(turn.time), session: s, noise: turn.noise !== null });
        }
      });
      const id = sha256(stableStringify(messages));
      contexts.push(JSON.stringify({ [id]: messages }));
      for (const qa of targets) {
        const asked = Date.parse(qa.questionTime);
        let end = 0;
        while (end < messages.length && meta[end]!.time < asked) end++;
        let letters = 0;
        let irrelevant = 0;
        for (let i = 0; i < end; i++) {
          letters += messages[i]!.content.length;
          if (meta[i]!.noise) irrelevant += messages[i]!.content.length;
        }
        const refs = evidenceTurns(bundle, qa).map((found) => position.get(found.turn.id) ?? 0);
        const ref = refs.length === 0 ? end : Math.max(...refs);
        let distanceLetters = 0;
        for (let i = ref; i < end; i++) distanceLetters += messages[i]!.content.length;
        const lastSession = end === 0 ? -1 : meta[end - 1]!.session;
        const refSession = ref < messages.length ? meta[ref]!.session : lastSession;
        const contextTokens = tokens(letters);
        const distanceTokens = tokens(distanceLetters);
        const options = qa.choices.map((choice, i) => `${optionLabel(i)} ${choice}`);
        // The published kinds: an integer persona id and a UUID per question (deterministic here).
        const values: Array<string | number> = [
          personaIndex,
          questionUuid(bundle.plan.userId, qa.id),
          qa.task,
          qa.group,
          contextTokens,
          letters,
          Math.max(0, lastSession - refSession),
          distanceTokens,
          tokens(irrelevant),
          `${contextTokens === 0 ? '0.00' : ((distanceTokens / contextTokens) * 100).toFixed(2)}%`,
          qa.question,
          optionLabel(qa.correctIndex ?? 0),
          `[${options.map(pythonRepr).join(', ')}]`,
          id,
          end,
        ];
        rows.push(values.map(csvField).join(','));
      }
    },
    async finish(): Promise<{ questions: number; contexts: number }> {
      await writeFileAtomic(join(dir, 'questions.csv'), `${rows.join('\n')}\n`);
      await writeFileAtomic(
        join(dir, 'shared_contexts.jsonl'),
        contexts.length === 0 ? '' : `${contexts.join('\n')}\n`,
      );
      return { questions: rows.length - 1, contexts: contexts.length };
    },
  };
}
