/**
 * Builds the browser's index of a run in one pass over each corpus file: for every user the byte
 * spans of its plan, dialogue and memory records, and for every exported row its span, user and
 * task. Only the plan lines are parsed whole (for items and tasks); the other files are read for
 * their first bytes, so building stays well under the time of reading the corpus.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { InputError } from '../errors/index.js';
import { readLineSpans } from '../util/read-lines.js';
import type { RunFacts } from './run-facts.js';
import type { IndexedUser, SampleFile, Span } from './types.js';

export const PLAN_FILE = 'plan/plan.jsonl';
export const DIALOGUE_FILE = 'dialogues/dialogues.jsonl';
export const MEMORY_FILE = 'memory/memory.jsonl';

const USER_ID = /"userId"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const ROW_USER = /"user_id"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const ROW_TASK = /"task"\s*:\s*"((?:[^"\\]|\\.)*)"/;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The first match of `pattern` in the line's head, else in the whole line. */
function field(head: string, text: () => string, pattern: RegExp): string | null {
  const match = pattern.exec(head) ?? pattern.exec(text());
  return match?.[1] === undefined ? null : (JSON.parse(`"${match[1]}"`) as string);
}

/** Spans of one record per user in a jsonl file (a missing file gives none). */
async function userSpans(
  path: string,
  onLine?: (userId: string, text: string) => void,
): Promise<Map<string, Span>> {
  const spans = new Map<string, Span>();
  try {
    await stat(path);
  } catch (error) {
    if (missing(error)) return spans;
    throw error;
  }
  let line = 0;
  for await (const span of readLineSpans(path, { headBytes: 512 })) {
    line++;
    const text = onLine === undefined ? null : span.text();
    const userId = field(span.head, () => text ?? span.text(), USER_ID);
    if (userId === null) throw new InputError(path, `line ${line} has no "userId"`);
    spans.set(userId, [span.offset, span.length]);
    if (onLine !== undefined && text !== null) {
      try {
        onLine(userId, text);
      } catch (error) {
        throw new InputError(path, `line ${line} is not a readable record (${(error as Error).message})`);
      }
    }
  }
  return spans;
}

/** Every exported jsonl file with rows keyed by `user_id` (export/<kind>/<split>.jsonl and deeper). */
async function sampleFiles(runDir: string): Promise<SampleFile[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (missing(error)) return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < 3 && entry.name !== 'images') await walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  await walk(join(runDir, 'export'), 0);
  const files: SampleFile[] = [];
  for (const path of found) {
    const rel = relative(runDir, path);
    const parts = rel.split('/');
    const file: SampleFile = {
      path: rel,
      kind: parts.slice(1, -1).join('/'),
      split: (parts[parts.length - 1] ?? '').replace(/\.jsonl$/, ''),
      rows: [],
    };
    for await (const span of readLineSpans(path, { headBytes: 512 })) {
      const user = field(span.head, span.text, ROW_USER);
      if (user === null) break; // not a file of per-user rows
      const task = field(span.head, span.text, ROW_TASK) ?? file.kind;
      file.rows.push({ offset: span.offset, length: span.length, user, task });
    }
    if (file.rows.length > 0) files.push(file);
  }
  return files;
}

interface PlanFacts {
  split: string;
  sessions: number;
  items: string[];
  tasks: string[];
  questions: number;
}

function planFacts(text: string): PlanFacts {
  const plan = JSON.parse(text) as {
    split?: string;
    sessions?: unknown[];
    preferences?: Array<{ item?: string }>;
    qa?: Array<{ task?: string }>;
  };
  return {
    split: plan.split ?? '',
    sessions: plan.sessions?.length ?? 0,
    items: [...new Set((plan.preferences ?? []).map((p) => p.item ?? '').filter((i) => i !== ''))],
    tasks: [...new Set((plan.qa ?? []).map((q) => q.task ?? '').filter((t) => t !== ''))],
    questions: plan.qa?.length ?? 0,
  };
}

/** Turn counts of a dialogue record, for a run validation has not seen. */
function dialogueCounts(text: string): { sessions: number; turns: number; imageTurns: number } {
  const dialogue = JSON.parse(text) as {
    sessions?: Array<{ turns?: Array<{ speaker?: string; images?: unknown[] }> }>;
  };
  let turns = 0;
  let imageTurns = 0;
  for (const session of dialogue.sessions ?? [])
    for (const turn of session.turns ?? []) {
      turns++;
      if (turn.speaker === 'user' && (turn.images?.length ?? 0) > 0) imageTurns++;
    }
  return { sessions: dialogue.sessions?.length ?? 0, turns, imageTurns };
}

/**
 * The index's users (in plan order, then users only later files name) and sample files.
 *
 * @example const { users } = await buildIndexEntries('out/quickstart', await readRunFacts('out/quickstart'));
 */
export async function buildIndexEntries(
  runDir: string,
  facts: RunFacts,
): Promise<{ users: IndexedUser[]; samples: SampleFile[] }> {
  const plans = new Map<string, PlanFacts>();
  const planSpans = await userSpans(join(runDir, PLAN_FILE), (userId, text) =>
    plans.set(userId, planFacts(text)),
  );
  const counted = new Map<string, ReturnType<typeof dialogueCounts>>();
  const dialogueSpans = await userSpans(
    join(runDir, DIALOGUE_FILE),
    facts.validatedUsers.size > 0 ? undefined : (userId, text) => counted.set(userId, dialogueCounts(text)),
  );
  const memorySpans = await userSpans(join(runDir, MEMORY_FILE));
  const samples = await sampleFiles(runDir);

  const unitUsers = new Set([...facts.units.map((u) => u.userId), ...facts.droppedQa.map((d) => d.userId)]);
  const flagsOf = new Map<string, Set<string>>();
  const flag = (userId: string, check: string) => {
    if (check === '') return;
    const set = flagsOf.get(userId) ?? new Set<string>();
    set.add(check);
    flagsOf.set(userId, set);
  };
  for (const [userId, v] of facts.validatedUsers)
    for (const [check, n] of Object.entries(v.failures)) if (n > 0) flag(userId, check);
  for (const example of facts.examples) flag(example.userId, example.check);
  const quarantinedUsers = new Set<string>();
  for (const record of facts.quarantine) {
    flag(record.userId, record.check);
    if (record.unit === null) quarantinedUsers.add(record.userId);
    else unitUsers.add(record.userId);
  }

  const ids = [...new Set([...planSpans.keys(), ...dialogueSpans.keys(), ...memorySpans.keys()])];
  const users = ids.map((userId): IndexedUser => {
    const plan = plans.get(userId);
    const validated = facts.validatedUsers.get(userId);
    const counts = counted.get(userId);
    return {
      userId,
      split: validated?.split || plan?.split || '',
      sessions: validated?.sessions ?? counts?.sessions ?? plan?.sessions ?? 0,
      turns: validated?.turns ?? counts?.turns ?? 0,
      imageTurns: validated?.imageTurns ?? counts?.imageTurns ?? 0,
      questions: validated?.qa ?? plan?.questions ?? 0,
      quarantine:
        validated?.quarantined === true || quarantinedUsers.has(userId)
          ? 'user'
          : unitUsers.has(userId)
            ? 'units'
            : null,
      flags: [...(flagsOf.get(userId) ?? [])].sort(),
      items: plan?.items ?? [],
      tasks: plan?.tasks ?? [],
      plan: planSpans.get(userId) ?? null,
      dialogue: dialogueSpans.get(userId) ?? null,
      memory: memorySpans.get(userId) ?? null,
    };
  });
  return { users, samples };
}
