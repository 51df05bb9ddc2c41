import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
import { UserDialogue } from '../schemas/dialogue.js';
import { UserMemory } from '../schemas/memory.js';
import { decodeUserMemoryRecord } from '../schemas/memory-record-codec.js';
import { UserPlan } from '../schemas/plan.js';
import { joinByUser, userIdOf } from '../util/join-by-user.js';
import { readLines } from '../util/read-lines.js';
import type { UserBundle } from './types.js';

/** Where the upstream stages write their records, relative to the run directory. */
export const RUN_FILES = {
  plan: 'plan/plan.jsonl',
  synth: 'dialogues/dialogues.jsonl',
  memory: 'memory/memory.jsonl',
} as const;

/** One stored line and its 1-based number in its file. */
export interface RawLine {
  text: string;
  line: number;
}

/** One user's stored lines, joined by `userId`, not yet parsed. */
export interface RunLines {
  userId: string;
  plan: RawLine;
  /** Null when the dialogue file has no record for the user. */
  dialogue: RawLine | null;
  /** Absent when the run has no memory file; null when it has no record for the user. */
  memory?: RawLine | null;
}

/** What one user's lines parse to: its bundle, a reason to skip it, or a line that is not JSON. */
export type ParsedRunLines =
  | { kind: 'bundle'; bundle: UserBundle }
  | { kind: 'skip'; reason: string }
  | { kind: 'invalid-json'; file: keyof typeof RUN_FILES; line: number; message: string };

/**
 * Streams a run's users as their raw lines (the plan file drives; dialogues and memory are joined
 * by `userId`, every file sorted by user id as the runner writes it). Nothing is parsed but each
 * line's `userId` (a regex near the start of the line, a parse as fallback). One user at a time.
 *
 * @example for await (const lines of readRunLines('out/quickstart')) console.log(lines.userId);
 */
export async function* readRunLines(runDir: string): AsyncGenerator<RunLines> {
  const memoryPath = join(runDir, RUN_FILES.memory);
  for await (const { key: userId, driver: plan, others } of joinByUser(
    rawRecords(join(runDir, RUN_FILES.plan)),
    {
      synth: rawRecords(join(runDir, RUN_FILES.synth)),
      memory: existsSync(memoryPath) ? rawRecords(memoryPath) : null,
    },
  )) {
    const lines: RunLines = { userId, plan: plan.raw, dialogue: others.synth?.raw ?? null };
    if (others.memory !== undefined) lines.memory = others.memory?.raw ?? null;
    yield lines;
  }
}

/**
 * Files whose records this version's stages wrote and nobody changed since
 * (`StageContext.unchangedOutput`): conforming to their schemas by construction, they are read
 * without them (the memory record is only decoded from its storage form).
 */
export interface TrustedFiles {
  plan: boolean;
  synth: boolean;
  memory: boolean;
}

const NOT_TRUSTED: TrustedFiles = { plan: false, synth: false, memory: false };

function decodeTrusted(
  raw: unknown,
): { success: true; data: UserMemory } | { success: false; error: { issues: Array<{ message: string }> } } {
  try {
    return {
      success: true,
      data: decodeUserMemoryRecord(raw as Record<string, unknown>) as unknown as UserMemory,
    };
  } catch (error) {
    return { success: false, error: { issues: [{ message: (error as Error).message }] } };
  }
}

/**
 * Parses and schema-checks one user's lines, in the order the checks always ran: plan schema,
 * dialogue present and valid, memory present and valid (when the run has a memory file).
 *
 * @example const parsed = parseRunLines(lines); if (parsed.kind === 'bundle') …
 */
export function parseRunLines(lines: RunLines, trusted: TrustedFiles = NOT_TRUSTED): ParsedRunLines {
  const json: Partial<Record<keyof typeof RUN_FILES, unknown>> = {};
  const sources: Array<[keyof typeof RUN_FILES, RawLine | null | undefined]> = [
    ['plan', lines.plan],
    ['synth', lines.dialogue],
    ['memory', lines.memory],
  ];
  for (const [file, raw] of sources) {
    if (raw === null || raw === undefined) continue;
    try {
      json[file] = JSON.parse(raw.text);
    } catch (error) {
      return { kind: 'invalid-json', file, line: raw.line, message: (error as Error).message };
    }
  }
  const plan = trusted.plan
    ? { success: true as const, data: json.plan as UserPlan }
    : UserPlan.safeParse(json.plan);
  if (!plan.success)
    return { kind: 'skip', reason: `plan record fails its schema: ${plan.error.issues[0]?.message ?? ''}` };
  if (lines.dialogue === null) return { kind: 'skip', reason: 'no dialogue (quarantined by synth)' };
  const dialogue = trusted.synth
    ? { success: true as const, data: json.synth as UserDialogue }
    : UserDialogue.safeParse(json.synth);
  if (!dialogue.success)
    return { kind: 'skip', reason: `dialogue fails its schema: ${dialogue.error.issues[0]?.message ?? ''}` };
  let memory: UserMemory | null = null;
  if (lines.memory !== undefined) {
    if (lines.memory === null) return { kind: 'skip', reason: 'no memory record (quarantined by memory)' };
    const result = trusted.memory ? decodeTrusted(json.memory) : UserMemory.safeParse(json.memory);
    if (!result.success)
      return {
        kind: 'skip',
        reason: `memory record fails its schema: ${result.error.issues[0]?.message ?? ''}`,
      };
    memory = result.data;
  }
  return { kind: 'bundle', bundle: { plan: plan.data, dialogue: dialogue.data, memory } };
}

/** The error a line that is not JSON fails the stage with (the file and line named). */
export function invalidJsonError(
  runDir: string,
  parsed: Extract<ParsedRunLines, { kind: 'invalid-json' }>,
): InputError {
  return new InputError(
    join(runDir, RUN_FILES[parsed.file]),
    `line ${parsed.line} is not valid JSON: ${parsed.message}`,
  );
}

interface RawRecord {
  userId: string;
  raw: RawLine;
}

/** The non-blank lines of a JSON Lines file with their `userId`. */
async function* rawRecords(path: string): AsyncGenerator<RawRecord> {
  let number = 0;
  for await (const text of readLines(path)) {
    number++;
    if (text.trim() === '') continue;
    let userId: string;
    try {
      userId = userIdOf(text.slice(0, 4096), () => text);
    } catch (error) {
      throw new InputError(path, `line ${number} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
    yield { userId, raw: { text, line: number } };
  }
}
