import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { InputError } from '../errors/index.js';
import { readChoices } from '../reward/choice-match.js';
import type { EvalFormat, EvalItem, EvalSet, EvalTurn } from './types.js';

/** LoCoMo's category numbers as its paper and `task_eval/evaluation.py` name them. */
export const LOCOMO_CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

const ACCEPTED =
  'a persona-forge export/eval folder or file, LoCoMo locomo10.json, PersonaMem questions_*.csv (with its shared_contexts*.jsonl beside it) or Persona-MME Persona-MME.json (with its samples/…/user_data.json)';

/**
 * Reads an evaluation set in its published format, detected from the path and content:
 * a run's `export/eval` folder (or one of its sets), LoCoMo `locomo10.json`, PersonaMem
 * `questions_*.csv` + `shared_contexts*.jsonl`, or Persona-MME `*.json` + `user_data.json`.
 * A file in none of these formats gets an error naming the accepted formats.
 *
 * @example const set = await loadEvalSet('out/quickstart/export/eval/persona-mme');
 */
export async function loadEvalSet(path: string): Promise<EvalSet[]> {
  const full = resolve(path);
  if (!existsSync(full)) throw new InputError(path, `not found; give ${ACCEPTED}`);
  if (statSync(full).isDirectory()) {
    const sets: EvalSet[] = [];
    const mme = existsSync(join(full, 'Persona-MME.json'))
      ? join(full, 'Persona-MME.json')
      : existsSync(join(full, 'persona-mme', 'Persona-MME.json'))
        ? join(full, 'persona-mme', 'Persona-MME.json')
        : undefined;
    if (mme !== undefined) sets.push(await loadPersonaMme(mme));
    const pmDir = existsSync(join(full, 'questions.csv')) ? full : join(full, 'personamem');
    const questions = existsSync(pmDir) ? findFile(pmDir, /^questions.*\.csv$/) : undefined;
    if (questions !== undefined) sets.push(await loadPersonaMem(questions));
    for (const name of ['locomo.json', 'locomo10.json']) {
      if (existsSync(join(full, name))) sets.push(await loadLocomo(join(full, name)));
    }
    const nonEmpty = sets.filter((set) => set.items.length > 0);
    if (nonEmpty.length === 0) throw new InputError(path, `holds no evaluation questions; give ${ACCEPTED}`);
    return nonEmpty;
  }
  const name = basename(full);
  if (/\.csv$/i.test(name)) return [await loadPersonaMem(full)];
  if (/\.json$/i.test(name)) {
    let first: unknown;
    try {
      const parsed: unknown = JSON.parse(await readFile(full, 'utf8'));
      first = Array.isArray(parsed) ? parsed[0] : undefined;
    } catch (error) {
      throw new InputError(path, `is not valid JSON (${(error as Error).message}); give ${ACCEPTED}`);
    }
    if (first !== null && typeof first === 'object') {
      if ('conversation' in first && 'qa' in first) return [await loadLocomo(full)];
      if ('data_path' in first && 'choices' in first) return [await loadPersonaMme(full)];
    }
  }
  throw new InputError(path, `is not an evaluation set persona-forge reads; give ${ACCEPTED}`);
}

function findFile(dir: string, pattern: RegExp): string | undefined {
  const names = readdirSync(dir)
    .filter((entry) => pattern.test(entry))
    .sort();
  return names.length === 0 ? undefined : join(dir, names[0] as string);
}

/** "2024-02-13 13:47" or an ISO string → ISO; null when absent or unreadable. */
function isoOf(text: unknown): string | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const normal = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text.trim())
    ? `${text.trim().replace(' ', 'T')}:00Z`
    : text;
  const at = Date.parse(normal);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

const labelIndex = (label: string) => {
  const match = /^\(?([a-z])\)?$/i.exec(label.trim());
  return match === null ? -1 : (match[1] as string).toLowerCase().charCodeAt(0) - 97;
};

/** Persona-MME: a list of questions, each naming its user's `user_data.json` by `data_path`. */
async function loadPersonaMme(file: string): Promise<EvalSet> {
  const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Array.isArray(raw)) throw new InputError(file, 'Persona-MME.json must be a list of questions');
  const histories = new Map<string, EvalTurn[]>();
  const items: EvalItem[] = [];
  const base = dirname(file);
  for (const [index, entry] of raw.entries()) {
    const q = entry as Record<string, unknown>;
    const dataPath = String(q.data_path ?? '');
    const resolved = resolveDataPath(base, dataPath);
    if (resolved === undefined) {
      throw new InputError(
        file,
        `question ${index}: data_path "${dataPath}" not found (looked beside the file)`,
      );
    }
    if (!histories.has(resolved)) histories.set(resolved, await readUserData(resolved));
    const choices = readChoices(q.choices) ?? [];
    const answer = String(q.answer ?? '');
    const bucket = /samples\/(\d+)\//.exec(dataPath)?.[1];
    const context = bucket === undefined ? null : Number(bucket) >= 200 ? '128k' : '32k';
    const alignment = q.alignment as { chosen?: unknown; rejected?: unknown } | undefined;
    items.push({
      id: `persona-mme:${index}`,
      format: 'persona-mme',
      task: String(q.question_type ?? q.type ?? 'unknown'),
      aspect: typeof q.type === 'string' ? q.type : null,
      contextLength: context,
      conversationId: resolved,
      question: String(q.query ?? ''),
      time: isoOf(q.time),
      choices,
      kind: 'mc',
      answer,
      category: null,
      ...(alignment === undefined
        ? {}
        : {
            alignment: { chosen: String(alignment.chosen ?? ''), rejected: String(alignment.rejected ?? '') },
          }),
      historyEnd: null,
    });
  }
  return { format: 'persona-mme', source: file, items, histories };
}

/** `./data/Persona-MME/samples/50/0/user_data.json` or `./samples/…`: found beside the questions file. */
function resolveDataPath(base: string, dataPath: string): string | undefined {
  const clean = dataPath.replace(/^\.\//, '');
  const candidates = [join(base, clean)];
  const at = clean.indexOf('samples/');
  if (at >= 0) candidates.push(join(base, clean.slice(at)));
  return candidates.find((candidate) => existsSync(candidate));
}

async function readUserData(file: string): Promise<EvalTurn[]> {
  const data = JSON.parse(await readFile(file, 'utf8')) as {
    sessions?: Array<Array<{ time?: string; user?: string; assistant?: string }>>;
  };
  const turns: EvalTurn[] = [];
  (data.sessions ?? []).forEach((session, s) => {
    session.forEach((round, r) => {
      const time = isoOf(round.time);
      if (round.user)
        turns.push({
          time,
          speaker: 'User',
          role: 'user',
          text: round.user.replaceAll('<img>', '[image]'),
          id: `S${s + 1}:${2 * r + 1}`,
        });
      if (round.assistant)
        turns.push({
          time,
          speaker: 'Assistant',
          role: 'assistant',
          text: round.assistant,
          id: `S${s + 1}:${2 * r + 2}`,
        });
    });
  });
  return turns;
}

/** PersonaMem: `questions_*.csv` rows over `shared_contexts*.jsonl` lines `{id: messages}`. */
async function loadPersonaMem(file: string): Promise<EvalSet> {
  const rows = parseCsv(await readFile(file, 'utf8'));
  const header = rows.shift() ?? [];
  const column = (name: string) => header.indexOf(name);
  for (const name of [
    'question_id',
    'question_type',
    'user_question_or_message',
    'correct_answer',
    'all_options',
    'shared_context_id',
  ]) {
    if (column(name) < 0)
      throw new InputError(file, `is not a PersonaMem questions file: no "${name}" column`);
  }
  const dir = dirname(file);
  const suffix = /questions(_\w+)?\.csv$/.exec(basename(file))?.[1] ?? '';
  const contextsFile = [join(dir, `shared_contexts${suffix}.jsonl`), join(dir, 'shared_contexts.jsonl')].find(
    (f) => existsSync(f),
  );
  const wanted = new Set(rows.map((row) => row[column('shared_context_id')] ?? ''));
  const histories = new Map<string, EvalTurn[]>();
  if (contextsFile !== undefined) {
    const lines = createInterface({
      input: createReadStream(contextsFile, 'utf8'),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as Record<string, Array<{ role: string; content: string }>>;
      for (const [id, messages] of Object.entries(record)) {
        if (!wanted.has(id)) continue;
        histories.set(
          id,
          messages.map((message, i) => ({
            time: null,
            speaker:
              message.role === 'assistant' ? 'Assistant' : message.role === 'system' ? 'System' : 'User',
            role: message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user',
            text: String(message.content ?? ''),
            id: `M${i}`,
          })),
        );
      }
    }
  }
  const context = /_(\d+k)\.csv$/.exec(basename(file))?.[1] ?? null;
  const items: EvalItem[] = rows
    .filter((row) => row.length >= header.length - 1)
    .map((row) => {
      const get = (name: string) => row[column(name)] ?? '';
      const end = Number.parseInt(get('end_index_in_shared_context'), 10);
      return {
        id: `personamem:${get('question_id')}`,
        format: 'personamem' as EvalFormat,
        task: get('question_type'),
        aspect: null,
        contextLength: context,
        conversationId: get('shared_context_id'),
        question: get('user_question_or_message'),
        time: null,
        choices: (readChoices(get('all_options')) ?? []).map((option) =>
          option.replace(/^\([a-z]\)\s*/i, ''),
        ),
        kind: 'mc' as const,
        answer: get('correct_answer').trim(),
        category: null,
        historyEnd: Number.isNaN(end) ? null : end,
      };
    });
  return { format: 'personamem', source: file, items, histories };
}

/** RFC 4180 CSV (quoted fields with commas, quotes and newlines). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** LoCoMo's free-text session time, "1:56 pm on 8 May, 2023", as ISO. */
export function locomoTime(text: string): string | null {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (match === null) return isoOf(text);
  const [, h, m, ampm, day, month, year] = match as unknown as string[];
  let hour = Number(h) % 12;
  if ((ampm as string).toLowerCase() === 'pm') hour += 12;
  const at = Date.parse(`${day} ${month} ${year} ${String(hour).padStart(2, '0')}:${m}:00 UTC`);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** LoCoMo: conversations with `session_<n>` turns and `qa` with categories 1–5. */
async function loadLocomo(file: string): Promise<EvalSet> {
  const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Array.isArray(raw)) throw new InputError(file, 'a LoCoMo file is a list of samples');
  const histories = new Map<string, EvalTurn[]>();
  const items: EvalItem[] = [];
  for (const [sampleIndex, entry] of raw.entries()) {
    const sample = entry as { sample_id?: string; conversation?: Record<string, unknown>; qa?: unknown[] };
    const conversation = sample.conversation;
    if (conversation === undefined || !Array.isArray(sample.qa)) {
      throw new InputError(file, `sample ${sampleIndex} has no conversation or qa: not a LoCoMo sample`);
    }
    const id = String(sample.sample_id ?? `sample-${sampleIndex}`);
    const speakerA = String(conversation.speaker_a ?? '');
    const turns: EvalTurn[] = [];
    const sessions = Object.keys(conversation)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    for (const n of sessions) {
      const time = locomoTime(String(conversation[`session_${n}_date_time`] ?? ''));
      for (const turn of (conversation[`session_${n}`] as Array<Record<string, unknown>>) ?? []) {
        const caption =
          typeof turn.blip_caption === 'string' ? ` [shares a photo: ${turn.blip_caption}]` : '';
        turns.push({
          time,
          speaker: String(turn.speaker ?? ''),
          role: turn.speaker === speakerA ? 'user' : 'assistant',
          text: `${String(turn.text ?? '')}${caption}`,
          id: String(turn.dia_id ?? ''),
        });
      }
    }
    histories.set(id, turns);
    sample.qa.forEach((q, qIndex) => {
      const qa = q as Record<string, unknown>;
      const category = Number(qa.category);
      const adversarial = category === 5;
      const answer = adversarial ? String(qa.adversarial_answer ?? qa.answer ?? '') : String(qa.answer ?? '');
      items.push({
        id: `locomo:${id}:${qIndex}`,
        format: 'locomo',
        task: LOCOMO_CATEGORIES[category] ?? `category-${category}`,
        aspect: null,
        contextLength: null,
        conversationId: id,
        question: String(qa.question ?? ''),
        time: null,
        choices: [],
        kind: adversarial ? 'adversarial' : 'open',
        answer,
        category,
        historyEnd: null,
      });
    });
  }
  return { format: 'locomo', source: file, items, histories };
}

/** The option label of index i: "(a)", "(b)", … */
export const labelOf = (index: number) => `(${String.fromCharCode(97 + index)})`;
export { labelIndex };
