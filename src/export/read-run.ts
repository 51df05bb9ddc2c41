import { existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
import { UserDialogue } from '../schemas/dialogue.js';
import { type UserMemory, UserMemoryRecord } from '../schemas/memory.js';
import { PACKED_FIELDS, type PackedField, readPackedIndex } from '../schemas/memory-pack.js';
import { decodeUserMemoryFields } from '../schemas/memory-record-codec.js';
import { UserPlan } from '../schemas/plan.js';
import { joinByUser, userIdOf } from '../util/join-by-user.js';
import { readLineSpans, readLines } from '../util/read-lines.js';
import { pruneBundle, readUnitDrops, type UserDrops } from './prune.js';

/** One user's records as export reads them. */
export interface ExportBundle {
  plan: UserPlan;
  dialogue: UserDialogue;
  memory: UserMemory | null;
}

/** Upstream record files relative to the run directory. */
export const EXPORT_INPUTS = {
  plan: 'plan/plan.jsonl',
  synth: 'dialogues/dialogues.jsonl',
  memory: 'memory/memory.jsonl',
} as const;

/** One user's stored lines (plan, dialogue, memory), not yet parsed. */
export interface ExportLines {
  userId: string;
  plan: string;
  dialogue: string;
  /** Null when the run has no memory file. */
  memory: string | null;
  /** Rounds, sessions and questions validate quarantined while keeping the user (left out when parsed). */
  drops?: UserDrops;
}

/** Where one record's line sits in its file (bytes, without the newline). */
export interface LineSpan {
  offset: number;
  length: number;
}

/**
 * One user's records as byte spans of the run's files: what the main thread hands a worker
 * thread, which reads the lines itself (`loadExportLines`) instead of receiving copies.
 */
export interface ExportSpans {
  userId: string;
  plan: LineSpan;
  /** Null when the dialogues were not read (`dialogues: false`). */
  dialogue: LineSpan | null;
  memory: LineSpan | null;
  drops?: UserDrops;
}

interface JoinOptions {
  drops?: ReadonlyMap<string, UserDrops>;
  /**
   * Without the dialogue file (a pass that reads plans and memory only) no user's dialogue is
   * read and users are not joined against it. @default true
   */
  dialogues?: boolean;
}

/**
 * Streams a run's users as their raw lines (files sorted by userId, joined like the runner's
 * merge join), skipping users listed in `exclude` (quarantined) and users missing downstream.
 * Nothing is parsed but each line's `userId`. One user at a time. Without dialogues
 * (`dialogues: false`) each user's `dialogue` is "".
 *
 * @example for await (const lines of readExportLines('out/q')) console.log(lines.userId);
 */
export async function* readExportLines(
  runDir: string,
  exclude: ReadonlySet<string> = new Set(),
  options: JoinOptions = {},
): AsyncGenerator<ExportLines> {
  for await (const user of joinRecords(runDir, exclude, options, rawRecords))
    yield { ...user, dialogue: user.dialogue ?? '' };
}

/**
 * `readExportLines` as byte spans: the main thread scans the files for line ends (the lines are
 * not decoded, but for the first bytes where `userId` is) and worker threads read the lines.
 *
 * @example for await (const spans of readExportSpans('out/q')) pool.run(spans);
 */
export function readExportSpans(
  runDir: string,
  exclude: ReadonlySet<string> = new Set(),
  options: JoinOptions = {},
): AsyncGenerator<ExportSpans> {
  return joinRecords(runDir, exclude, options, spanRecords);
}

async function* joinRecords<T>(
  runDir: string,
  exclude: ReadonlySet<string>,
  options: JoinOptions,
  records: (path: string) => AsyncGenerator<{ userId: string; line: T }>,
): AsyncGenerator<{ userId: string; plan: T; dialogue: T | null; memory: T | null; drops?: UserDrops }> {
  // Quarantined rounds and sessions of users otherwise kept, and the questions they carried.
  const drops = options.drops ?? (await readUnitDrops(runDir));
  const memoryPath = join(runDir, EXPORT_INPUTS.memory);
  const withDialogues = options.dialogues ?? true;
  for await (const { key: userId, driver: plan, others } of joinByUser(
    records(join(runDir, EXPORT_INPUTS.plan)),
    {
      dialogue: withDialogues ? records(join(runDir, EXPORT_INPUTS.synth)) : null,
      memory: existsSync(memoryPath) ? records(memoryPath) : null,
    },
  )) {
    // Quarantined users cost a regex, not a parse; users missing downstream are left out.
    if (exclude.has(userId) || others.dialogue === null || others.memory === null) continue;
    const userDrops = drops.get(userId);
    yield {
      userId,
      plan: plan.line,
      dialogue: others.dialogue?.line ?? null,
      memory: others.memory?.line ?? null,
      ...(userDrops === undefined ? {} : { drops: userDrops }),
    };
  }
}

/** Open files of a worker thread, by path (read only; they live as long as the thread). */
const openFiles = new Map<string, number>();

/**
 * A user's lines read from the run's files at their spans (on a worker thread).
 *
 * @example const lines = loadExportLines(runDir, spans); scanUser(lines, config, seed);
 */
export function loadExportLines(runDir: string, spans: ExportSpans): ExportLines {
  const read = (file: string, span: LineSpan) => {
    const path = join(runDir, file);
    let fd = openFiles.get(path);
    if (fd === undefined) {
      fd = openSync(path, 'r');
      openFiles.set(path, fd);
    }
    const buffer = Buffer.allocUnsafe(span.length);
    let done = 0;
    while (done < span.length) {
      const got = readSync(fd, buffer, done, span.length - done, span.offset + done);
      if (got === 0)
        throw new InputError(path, `ends before the line at byte ${span.offset} (the file changed)`);
      done += got;
    }
    return buffer.toString('utf8');
  };
  return {
    userId: spans.userId,
    plan: read(EXPORT_INPUTS.plan, spans.plan),
    dialogue: spans.dialogue === null ? '' : read(EXPORT_INPUTS.synth, spans.dialogue),
    memory: spans.memory === null ? null : read(EXPORT_INPUTS.memory, spans.memory),
    ...(spans.drops === undefined ? {} : { drops: spans.drops }),
  };
}

/**
 * Streams a run's users as bundles (see `readExportLines`), skipping records failing their
 * schema (unless `trusted`: a second pass over files already checked) and leaving out the rounds,
 * sessions and questions validate quarantined. One user at a time.
 *
 * @example for await (const bundle of readExportBundles('out/q', new Set(['user-0003']))) …
 */
export async function* readExportBundles(
  runDir: string,
  exclude: ReadonlySet<string> = new Set(),
  options: { trusted?: boolean; drops?: ReadonlyMap<string, UserDrops> } = {},
): AsyncGenerator<ExportBundle> {
  for await (const lines of readExportLines(
    runDir,
    exclude,
    options.drops === undefined ? {} : { drops: options.drops },
  )) {
    const bundle = parseExportLines(lines, options);
    if (bundle !== null) yield bundle;
  }
}

/**
 * One user's lines → its bundle, or null when a record fails its schema. `trusted` skips the
 * schema work (files already checked once). Memory records were schema-checked by the memory
 * stage when written (and by validate): only their envelope is checked, and only `fields` of a
 * packed record are decoded (export never reads the PersonaTree versions), or none with
 * `catalogue` (see `readMemory`).
 */
export function parseExportLines(
  lines: ExportLines,
  options: { trusted?: boolean; memoryFields?: readonly PackedField[]; catalogue?: boolean } = {},
): ExportBundle | null {
  const rawMemory =
    lines.memory === null
      ? null
      : readMemory(
          JSON.parse(lines.memory) as Record<string, unknown>,
          options.memoryFields ?? PACKED_FIELDS,
          options.catalogue === true && lines.drops === undefined,
        );
  if (options.trusted === true) {
    return pruneBundle(
      {
        plan: JSON.parse(lines.plan) as UserPlan,
        dialogue: JSON.parse(lines.dialogue) as UserDialogue,
        memory: rawMemory as UserMemory | null,
      },
      lines.drops,
    );
  }
  const parsedPlan = UserPlan.safeParse(JSON.parse(lines.plan));
  const parsedDialogue = UserDialogue.safeParse(JSON.parse(lines.dialogue));
  const parsedMemory = rawMemory === null ? null : MemoryEnvelope.safeParse(rawMemory);
  if (!parsedPlan.success || !parsedDialogue.success || (parsedMemory !== null && !parsedMemory.success))
    return null;
  return pruneBundle(
    { plan: parsedPlan.data, dialogue: parsedDialogue.data, memory: rawMemory as UserMemory | null },
    lines.drops,
  );
}

/**
 * A stored memory record with `fields` decoded; with `catalogue`, a `packed-v2` record instead
 * gets its index as stand-ins — traces as `{ id, task }`, trajectories as `{ qaId }`, no
 * snapshots: enough to name the rows it yields (what export's first pass does), not to build them.
 */
function readMemory(
  stored: Record<string, unknown>,
  fields: readonly PackedField[],
  catalogue: boolean,
): Record<string, unknown> {
  const index = catalogue ? readPackedIndex(stored.packed) : null;
  if (index === null) return decodeUserMemoryFields(stored, fields);
  const { packed: _packed, ...envelope } = stored;
  return {
    ...envelope,
    snapshots: [],
    traces: index.traces.map(([id, task]) => ({ id, task })),
    trajectories: index.trajectories.map((qaId) => ({ qaId })),
  };
}

/** The fields export relies on being present before it trusts a memory record. */
const MemoryEnvelope = UserMemoryRecord.pick({ schemaVersion: true, userId: true, offline: true }).loose();

/** Streams the lines of a JSON Lines file with their `userId`. */
async function* rawRecords(path: string): AsyncGenerator<{ userId: string; line: string }> {
  for await (const line of readLines(path)) {
    if (line.trim() === '') continue;
    yield { userId: userIdOf(line.slice(0, 4096), () => line), line };
  }
}

/** Streams the non-empty lines of a file as byte spans with their `userId` (see `rawRecords`). */
async function* spanRecords(path: string): AsyncGenerator<{ userId: string; line: LineSpan }> {
  for await (const span of readLineSpans(path)) {
    yield { userId: userIdOf(span.head, span.text), line: { offset: span.offset, length: span.length } };
  }
}
