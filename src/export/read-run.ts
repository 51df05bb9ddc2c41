import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserDialogue } from '../schemas/dialogue.js';
import { type UserMemory, UserMemoryRecord } from '../schemas/memory.js';
import { PACKED_FIELDS, type PackedField, readPackedIndex } from '../schemas/memory-pack.js';
import { decodeUserMemoryFields } from '../schemas/memory-record-codec.js';
import { UserPlan } from '../schemas/plan.js';
import { readLines } from '../util/read-lines.js';
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

/**
 * Streams a run's users as their raw lines (files sorted by userId, joined like the runner's
 * merge join), skipping users listed in `exclude` (quarantined) and users missing downstream.
 * Nothing is parsed but each line's `userId`. One user at a time.
 *
 * @example for await (const lines of readExportLines('out/q')) console.log(lines.userId);
 */
export async function* readExportLines(
  runDir: string,
  exclude: ReadonlySet<string> = new Set(),
  options: { drops?: ReadonlyMap<string, UserDrops>; dialogues?: boolean } = {},
): AsyncGenerator<ExportLines> {
  // Quarantined rounds and sessions of users otherwise kept, and the questions they carried.
  const drops = options.drops ?? (await readUnitDrops(runDir));
  const memoryPath = join(runDir, EXPORT_INPUTS.memory);
  // Without the dialogue file (`dialogues: false`, a pass that reads plans and memory only)
  // every user's `dialogue` is "" and users are not joined against it.
  const withDialogues = options.dialogues ?? true;
  const dialogues = withDialogues ? rawRecords(join(runDir, EXPORT_INPUTS.synth)) : noRecords();
  const memories = existsSync(memoryPath) ? rawRecords(memoryPath) : null;
  let dialogue = await pull(dialogues);
  let memory = memories === null ? null : await pull(memories);
  try {
    for await (const plan of rawRecords(join(runDir, EXPORT_INPUTS.plan))) {
      const userId = plan.userId;
      while (dialogue !== null && dialogue.userId < userId) dialogue = await pull(dialogues);
      while (memories !== null && memory !== null && memory.userId < userId) memory = await pull(memories);
      // Quarantined users cost a regex, not a parse.
      if (exclude.has(userId) || (withDialogues && dialogue?.userId !== userId)) continue;
      if (memories !== null && memory?.userId !== userId) continue;
      const userDrops = drops.get(userId);
      yield {
        userId,
        plan: plan.line,
        dialogue: withDialogues ? (dialogue?.line ?? '') : '',
        memory: memory?.line ?? null,
        ...(userDrops === undefined ? {} : { drops: userDrops }),
      };
    }
  } finally {
    // Close the secondary files even when the driver ends first or the consumer stops early.
    await dialogues.return(undefined);
    await memories?.return(undefined);
  }
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

const USER_ID = /"userId":"((?:[^"\\]|\\.)*)"/;

/** Streams the lines of a JSON Lines file with their `userId` (read with a regex near the start, parse as fallback). */
async function* rawRecords(path: string): AsyncGenerator<{ userId: string; line: string }> {
  for await (const line of readLines(path)) {
    if (line.trim() === '') continue;
    const match = USER_ID.exec(line.slice(0, 4096));
    const userId =
      match !== null
        ? (JSON.parse(`"${match[1]}"`) as string)
        : String((JSON.parse(line) as { userId?: unknown }).userId);
    yield { userId, line };
  }
}

async function* noRecords(): AsyncGenerator<{ userId: string; line: string }> {}

async function pull(
  iterator: AsyncGenerator<{ userId: string; line: string }>,
): Promise<{ userId: string; line: string } | null> {
  const next = await iterator.next();
  return next.done === true ? null : next.value;
}
