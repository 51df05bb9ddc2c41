import { InputError } from '../errors/index.js';
import type { ExportConfig } from '../schemas/export-config.js';
import type { UserMemory } from '../schemas/memory.js';
import { decodeUserMemoryFields } from '../schemas/memory-record-codec.js';
import type { UserPlan } from '../schemas/plan.js';
import { type RegionRef, type RegionWriter, RingWriter } from '../util/byte-ring.js';
import { sha256 } from '../util/hash.js';
import { type ColumnChunk, encodeColumns } from './column-chunk.js';
import type { EvalSource } from './eval/common.js';
import { buildLocomoSample, type LocomoSample } from './eval/locomo.js';
import { type PersonaMmeUser, personaMmeUser } from './eval/persona-mme.js';
import { type PersonaMemUser, personaMemUser } from './eval/personamem.js';
import { quotaKey, quotaRank } from './mix.js';
import {
  EXPORT_INPUTS,
  type ExportLines,
  type ExportSpans,
  loadExportLines,
  parseExportLines,
} from './read-run.js';
import { rowShapeProblems } from './row-shape.js';
import {
  type Candidate,
  type RlRow,
  type RowSource,
  rlCandidateList,
  type SftRow,
  sftCandidateList,
  traceCandidateId,
} from './samples.js';

/**
 * Export's per-user work, the same on the main thread and on worker threads (`exportUserJob`):
 * pass 1 scans a user (schema checks, every candidate row named), pass 2 builds the kept rows,
 * checks their shape and renders them as the JSON lines the writers append. The results are
 * plain data, so the caller assembles the same bytes whichever thread did the work.
 */
export type Split = 'train' | 'test';

export const SFT_COLUMNS = ['id', 'user_id', 'task', 'messages', 'images'] as const;
export const RL_COLUMNS = [
  'id',
  'user_id',
  'task',
  'answer_type',
  'messages',
  'images',
  'solution',
  'choices',
  'gt_ops',
  'question_time',
  'memory_snapshot',
] as const;

/** Each kind's columns, in file order. */
const COLUMNS = { sft: SFT_COLUMNS, rl: RL_COLUMNS } as const;

/** Export never reads the PersonaTree versions: a packed record leaves them encoded. */
const MEMORY_FIELDS = ['snapshots', 'traces', 'trajectories'] as const;

export function splitOf(bundle: Pick<RowSource, 'plan'>, config: ExportConfig, seed: number): Split {
  if (config.split.by === 'plan') return bundle.plan.split;
  const draw =
    Number.parseInt(sha256(`${seed}\u241fsplit\u241f${bundle.plan.userId}`).slice(0, 8), 16) / 0x100000000;
  return draw < config.split.testRatio ? 'test' : 'train';
}

/** One candidate row, named (pass 1 does not build rows), with its place in the mix's order. */
export interface ScannedCandidate {
  kind: 'sft' | 'rl';
  task: string;
  id: string;
  /** `quotaKey` of the id's `quotaRank`: its place in the mix's order (a number crosses threads cheaply). */
  key: number;
}

export type UserScan =
  | { ok: false }
  | {
      ok: true;
      split: Split;
      realizer: string;
      dialogueOffline: boolean;
      memoryOffline: boolean;
      /** Pool-relative paths of the images the dialogue shows, in turn order. */
      imagePaths: string[];
      candidates: ScannedCandidate[];
      /** Fingerprint of the candidate ids in order: pass 2 must name the same rows. */
      digest: string;
      /**
       * For users of the evaluation splits: their parts of the evaluation sets, made from the plan
       * and the dialogue (schema-checked, without the rounds and questions validate quarantined).
       */
      evalParts?: EvalParts;
    };

/**
 * Pass 1 for one user: the records' schema checks and every candidate row named, none built.
 * A `packed-v2` memory record names its traces and trajectories in its index, so its bulky
 * fields are not decoded here (they are, once, in pass 2); older forms, and users validate
 * quarantined rounds of (whose traces are pruned by content), decode them. `{ ok: false }` when
 * a record fails its schema (the user is left out); `trusted` records (files this version's
 * stages wrote, unchanged) are not parsed through their schemas.
 */
export function scanUser(lines: ExportLines, config: ExportConfig, seed: number, trusted = false): UserScan {
  const bundle = parseExportLines(lines, { memoryFields: MEMORY_FIELDS, catalogue: true, trusted });
  if (bundle === null) return { ok: false };
  const pool = new Map(bundle.plan.images.map((image) => [image.id, image.path]));
  const imagePaths: string[] = [];
  for (const session of bundle.dialogue.sessions) {
    for (const turn of session.turns) for (const id of turn.images) imagePaths.push(pool.get(id) ?? id);
  }
  const candidates: ScannedCandidate[] = [];
  for (const { kind, candidate } of candidatesOf(bundle, config))
    candidates.push({
      kind,
      task: candidate.task,
      id: candidate.id,
      key: quotaKey(quotaRank(seed, candidate.id)),
    });
  const split = splitOf(bundle, config, seed);
  return {
    ok: true,
    split,
    realizer: bundle.dialogue.realizer,
    dialogueOffline: bundle.dialogue.offline,
    memoryOffline: bundle.memory?.offline === true,
    imagePaths,
    candidates,
    digest: idsDigest(candidates.map((candidate) => candidate.id)),
    ...(config.eval.splits.includes(split) ? { evalParts: evalParts(bundle, config) } : {}),
  };
}

/** A user's parts of the evaluation sets (each null when the user has no question for it). */
export interface EvalParts {
  personaMme: PersonaMmeUser | null;
  personaMem: PersonaMemUser | null;
  locomo: LocomoSample | null;
}

function evalParts(bundle: EvalSource, config: ExportConfig): EvalParts {
  return {
    personaMme: personaMmeUser(bundle, config),
    personaMem: personaMemUser(bundle, config),
    locomo: buildLocomoSample(bundle, config),
  };
}

/** Where a kind's JSON lines are in a user's region (bytes from its start). */
export interface ByteRange {
  from: number;
  to: number;
}

/**
 * The kept rows of one user: counted by task, as jsonl bytes and (with Parquet) as column chunks,
 * all written to one region of bytes (a ring shared with the main thread, or a buffer).
 */
export interface UserRows {
  split: Split;
  rows: Array<{ kind: 'sft' | 'rl'; task: string }>;
  /** Where the region is: the rows' bytes. */
  region: RegionRef;
  /** The ring the region is in (see `ExportJobData.ring`), when it is in one. */
  ring?: number;
  /** The rows as the bytes the jsonl files append (UTF-8, one line each), by kind. */
  jsonl: { sft: ByteRange; rl: ByteRange };
  /** The rows' columns for the Parquet writers, by kind (null without Parquet or rows); their text is in the region. */
  parquet: { sft: ColumnChunk | null; rl: ColumnChunk | null };
  /** Kept rows ms-swift would train on wrongly (see `rowShapeProblems`): not written. */
  rejected: Array<{ id: string; problems: string[] }>;
  /** Fingerprint of every candidate id in order (the same as pass 1's, or the records changed). */
  digest: string;
}

/**
 * Pass 2 for one user: the memory record decoded, only the kept candidates built and checked,
 * their JSON lines and column text written to a new region of `out`.
 */
export function renderKeptRows(
  lines: ExportLines,
  config: ExportConfig,
  seed: number,
  keep: ReadonlySet<string>,
  out: RegionWriter,
): UserRows {
  // Rows are made from the plan and the memory record: the dialogue is not even parsed (but for
  // a user with quarantined rounds, whose plan and memory are pruned against it).
  const pruned =
    lines.drops === undefined
      ? null
      : parseExportLines(lines, { trusted: true, memoryFields: MEMORY_FIELDS });
  const plan = pruned === null ? (JSON.parse(lines.plan) as UserPlan) : null;
  const bundle: RowSource = pruned ?? {
    plan: plan as UserPlan,
    memory: lines.memory === null ? null : decodeMemory(lines.userId, lines.memory, keep),
  };
  const rows: UserRows['rows'] = [];
  const rejected: UserRows['rejected'] = [];
  const ids: string[] = [];
  const kept = { sft: [] as Array<Record<string, unknown>>, rl: [] as Array<Record<string, unknown>> };
  const lengths = { sft: [] as number[], rl: [] as number[] };
  const jsonl = { sft: { from: 0, to: 0 }, rl: { from: 0, to: 0 } };
  out.begin();
  let current: 'sft' | 'rl' | null = null;
  for (const { kind, candidate } of candidatesOf(bundle, config)) {
    ids.push(candidate.id);
    if (!keep.has(candidate.id)) continue;
    const row = candidate.build();
    const problems = rowShapeProblems(row);
    if (problems.length > 0) {
      rejected.push({ id: candidate.id, problems });
      continue;
    }
    const picked = pick(row, COLUMNS[kind]);
    rows.push({ kind, task: candidate.task });
    kept[kind].push(picked);
    // Every SFT candidate comes before every RL one: each kind's lines are one range.
    if (current !== kind) {
      current = kind;
      jsonl[kind].from = out.length;
    }
    const line = JSON.stringify(picked);
    lengths[kind].push(line.length);
    out.writeLine(line);
    jsonl[kind].to = out.length;
  }
  // Encoded here, off the thread that writes the files (which only appends these bytes and
  // hands the chunks to the Parquet encoder).
  const chunk = (kind: 'sft' | 'rl') =>
    config.parquet && kept[kind].length > 0
      ? encodeColumns(kept[kind], COLUMNS[kind], Int32Array.from(lengths[kind]), out)
      : null;
  const parquet = { sft: chunk('sft'), rl: chunk('rl') };
  return {
    split: splitOf(bundle, config, seed),
    rows,
    region: out.end(),
    jsonl,
    parquet,
    rejected,
    digest: idsDigest(ids),
  };
}

/** A user's stored memory record with only the traces of kept rows decoded (the others are named, never built). */
function decodeMemory(userId: string, line: string, keep: ReadonlySet<string>): UserMemory {
  try {
    return decodeUserMemoryFields(JSON.parse(line) as Record<string, unknown>, MEMORY_FIELDS, {
      wantTrace: (id, task) => keep.has(traceCandidateId(userId, { id, task })),
    }) as UserMemory;
  } catch (error) {
    throw new InputError(EXPORT_INPUTS.memory, `user ${userId}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Fingerprint of a user's candidate ids in order. */
function idsDigest(ids: readonly string[]): string {
  return sha256(ids.join('\n'));
}

/** A user's SFT candidates, then its RL candidates, each with its kind. */
function* candidatesOf(
  bundle: RowSource,
  config: ExportConfig,
): Generator<{ kind: 'sft' | 'rl'; candidate: Candidate<SftRow> | Candidate<RlRow> }> {
  for (const candidate of sftCandidateList(bundle, config)) yield { kind: 'sft', candidate };
  for (const candidate of rlCandidateList(bundle, config)) yield { kind: 'rl', candidate };
}

function pick(row: object, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = (row as Record<string, unknown>)[column];
  return out;
}

/**
 * What a worker thread is asked: scan a user, or render a user's kept rows (`keep`: the ids the
 * mix chose among the user's candidates); the lines are read from the spans.
 */
export type ExportJob =
  | { kind: 'scan'; spans: ExportSpans }
  | { kind: 'rows'; spans: ExportSpans; keep: string[] };

export interface ExportJobData {
  runDir: string;
  config: unknown;
  seed: number;
  trusted: boolean;
  /** This worker's ring (see byte-ring.ts): the rendered rows' bytes go there, not into messages. */
  ring: { id: number; buffer: SharedArrayBuffer };
}

/** The ring writer of this worker thread, made at its first rows job. */
let ringWriter: RingWriter | null = null;

/** The worker-thread handler (src/util/thread-pool.ts) running `scanUser` and `renderKeptRows`. */
export function exportUserJob(job: ExportJob, data: ExportJobData): UserScan | UserRows {
  // The main thread's parsed configuration (structured-cloned): nothing to parse again.
  const config = data.config as ExportConfig;
  const lines = loadExportLines(data.runDir, job.spans);
  if (job.kind === 'scan') return scanUser(lines, config, data.seed, data.trusted);
  ringWriter ??= new RingWriter(data.ring.buffer);
  return { ...renderKeptRows(lines, config, data.seed, new Set(job.keep), ringWriter), ring: data.ring.id };
}
