import { z } from 'zod';
import { BigFive, IsoTime, SCHEMA_VERSION } from './common.js';
import { decodeUserMemoryRecord } from './memory-record-codec.js';
import { CoreMemory } from './persona.js';

/**
 * The memory stage's record per user (`<run-dir>/memory/memory.jsonl`): memory snapshots after
 * every session, one self-contained trace per memory-task step (what a memory SFT/RL sample is
 * made from), PersonaTree versions with gold op lists per chunk, and one reasoning trajectory
 * per QA target. Traces carry the exact text the model should emit (`target.text`).
 */

/** One positive semantic write (append-only). */
export const SemanticEntry = z
  .object({
    id: z.string(),
    reason: z.string(),
    content: z.string(),
    keywords: z.array(z.string()),
    timestamp: IsoTime,
    turnId: z.string(),
    sessionIndex: z.number().int().min(0),
    imageIds: z.array(z.string()),
    /** Plan evidence slots this entry records (gold replay); empty for teacher/model writes. */
    slotIds: z.array(z.string()),
  })
  .strict();
export type SemanticEntry = z.infer<typeof SemanticEntry>;

/** A topic segment of one session (append-only, built at session end). */
export const EpisodicEntry = z
  .object({
    id: z.string(),
    sessionIndex: z.number().int().min(0),
    summary: z.string(),
    keywords: z.array(z.string()),
    /** Turn indices (within the session) this episode covers; the episodes of a session cover all its turns. */
    turnIndices: z.array(z.number().int().min(0)),
    start: IsoTime,
    end: IsoTime,
    slotIds: z.array(z.string()),
  })
  .strict();
export type EpisodicEntry = z.infer<typeof EpisodicEntry>;

/** A goal or habit (`unique key` → sentence), latest only, at most 5. */
export const ProceduralEntry = z
  .object({
    id: z.string(),
    key: z.string(),
    sentence: z.string(),
    updatedAt: IsoTime,
    slotIds: z.array(z.string()),
  })
  .strict();
export type ProceduralEntry = z.infer<typeof ProceduralEntry>;

/** Personality profile P (five floats in [1, 5]) and the PEM turn counter m. */
export const PersonalityState = z
  .object({
    p: BigFive,
    /** m: user turns the PEM has seen (skipped ones included); λ_m grows with it. */
    turns: z.number().int().min(0),
  })
  .strict();
export type PersonalityState = z.infer<typeof PersonalityState>;

/** The memory state at `time` (the end of session `sessionIndex`; -1 = before any session). */
export const MemorySnapshot = z
  .object({
    time: IsoTime,
    sessionIndex: z.number().int().min(-1),
    core: CoreMemory,
    semantic: z.array(SemanticEntry),
    episodic: z.array(EpisodicEntry),
    procedural: z.array(ProceduralEntry),
    personality: PersonalityState,
  })
  .strict();
export type MemorySnapshot = z.infer<typeof MemorySnapshot>;

export const MemoryTaskName = z.enum([
  'semantic_write',
  'personality_inference',
  'core_update',
  'episodic_summary',
  'procedural_update',
  'tree_ops',
]);
export type MemoryTaskName = z.infer<typeof MemoryTaskName>;

/** A dialogue turn as a memory prompt shows it. */
export const TraceTurn = z
  .object({
    id: z.string(),
    index: z.number().int().min(0),
    time: IsoTime,
    speaker: z.enum(['user', 'assistant']),
    text: z.string(),
    images: z.array(z.string()),
  })
  .strict();
export type TraceTurn = z.infer<typeof TraceTurn>;

/** A target: the structured value and the exact text the model should emit for it. */
export const TraceTarget = z.object({ text: z.string(), value: z.unknown() }).strict();
export type TraceTarget = z.infer<typeof TraceTarget>;

export const TeacherTarget = z
  .object({
    model: z.string(),
    text: z.string(),
    value: z.unknown(),
    /** Whether the teacher's target agrees with the gold target (task-specific comparison). */
    agrees: z.boolean(),
  })
  .strict();
export type TeacherTarget = z.infer<typeof TeacherTarget>;

/**
 * One memory-task step. `input` holds the prompt inputs as structured fields (per task:
 * `turns` = the turns shown, `context` = short-term context, `core`/`procedural`/`tree`/`personality`
 * = the state before the step), so an exporter can render the prompt without the dialogue.
 */
export const MemoryTrace = z
  .object({
    id: z.string(),
    task: MemoryTaskName,
    userId: z.string(),
    sessionIndex: z.number().int().min(0),
    /** The turn this step follows (per-turn tasks) or the last turn of the session/chunk. */
    turnId: z.string(),
    time: IsoTime,
    input: z.record(z.string(), z.unknown()),
    gold: TraceTarget,
    teacher: TeacherTarget.nullable(),
  })
  .strict();
export type MemoryTrace = z.infer<typeof MemoryTrace>;

export const TreeOpKind = z.enum(['ADD', 'UPDATE', 'DELETE', 'NO_OP']);
export type TreeOpKind = z.infer<typeof TreeOpKind>;

/** One PersonaTree operation; `value` is null for DELETE and NO_OP. */
export const TreeOp = z
  .object({ op: TreeOpKind, path: z.string().nullable(), value: z.string().nullable() })
  .strict();
export type TreeOp = z.infer<typeof TreeOp>;

export const TreeDiffEntry = z
  .object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() })
  .strict();
export type TreeDiffEntry = z.infer<typeof TreeDiffEntry>;

/** Version T_{version} of the PersonaTree: the gold ops of one chunk of w turns and the diff they made. */
export const TreeVersion = z
  .object({
    version: z.number().int().min(1),
    sessionIndex: z.number().int().min(0),
    turnIds: z.array(z.string()),
    time: IsoTime,
    ops: z.array(TreeOp),
    /** Gold ops in the exact line format (`ADD(path, "value")` …), one per line. */
    opsText: z.string(),
    diff: z.array(TreeDiffEntry),
  })
  .strict();
export type TreeVersion = z.infer<typeof TreeVersion>;

export const RetrieveQuery = z
  .object({ keywords: z.string(), start_time: z.string().nullable(), end_time: z.string().nullable() })
  .strict();
export type RetrieveQuery = z.infer<typeof RetrieveQuery>;

export const TrajectoryStep = z
  .object({
    think: z.string(),
    retrieve: RetrieveQuery.nullable(),
    /** Entry ids returned by this retrieval (never repeated within a trajectory). */
    retrievedIds: z.array(z.string()),
    /** The memory block appended after the `<retrieve>` turn (`formatMemoryBlock`). */
    retrievedBlock: z.string().nullable(),
    topK: z
      .object({ semantic: z.number(), episodic: z.number(), procedural: z.number() })
      .strict()
      .nullable(),
  })
  .strict();
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

/** The `<think>` → `<retrieve>` → … → `<answer>` trajectory for one QA target. */
export const ReasoningTrajectory = z
  .object({
    qaId: z.string(),
    questionTime: IsoTime,
    question: z.string(),
    steps: z.array(TrajectoryStep),
    answer: z.string(),
    /** The final assistant text of every step, in order (`<think>…</think><retrieve>…</retrieve>` / `<answer>`). */
    messages: z.array(z.string()),
    retrievals: z.number().int().min(0),
    /** The first retrieval returned at least one entry carrying an evidence slot of the target. */
    firstRetrievalHit: z.boolean(),
    /** Some retrieval returned evidence (so the answer comes from memory). */
    evidenceRetrieved: z.boolean(),
    /** True when produced without a model (answer derived from retrieved entries + the plan). */
    offline: z.boolean(),
  })
  .strict();
export type ReasoningTrajectory = z.infer<typeof ReasoningTrajectory>;

/** One `memory.jsonl` record with its snapshots in full (the in-memory shape every consumer reads). */
export const UserMemoryRecord = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    userId: z.string(),
    offline: z.boolean(),
    /** Snapshot before any session (index -1) then one after every session, ordered by time. */
    snapshots: z.array(MemorySnapshot).min(1),
    traces: z.array(MemoryTrace),
    tree: z
      .object({
        schemaId: z.string(),
        chunkTurns: z.number().int().min(1),
        /** T_0: the initial tree (flattened non-empty leaves, path → value). */
        initial: z.record(z.string(), z.string()),
        versions: z.array(TreeVersion),
        /** T_N flattened. */
        final: z.record(z.string(), z.string()),
      })
      .strict(),
    trajectories: z.array(ReasoningTrajectory),
    stats: z
      .object({
        traces: z.record(z.string(), z.number().int()),
        teacherAgreement: z.number().min(0).max(1).nullable(),
        /** Share of trajectories with evidence whose first retrieval returned some of it. */
        firstRetrievalHitRate: z.number().min(0).max(1).nullable(),
        /** Dialogue session starts the t_s rule did not see as new sessions, plus splits it saw inside one. */
        sessionBoundaryMismatches: z.number().int().min(0),
      })
      .strict(),
  })
  .strict();
export type UserMemory = z.infer<typeof UserMemoryRecord>;

/**
 * A `memory.jsonl` record as read from disk: packed (`packed-v2`, or `packed-v1` without its
 * index; memory-pack.ts), with shared subtrees (`shared-v1`), snapshots as deltas (`delta-v1`)
 * or in full (older runs) all parse to the full record (memory-record-codec.ts).
 */
export const UserMemory = z.preprocess((raw, ctx) => {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  try {
    return decodeUserMemoryRecord(raw as Record<string, unknown>);
  } catch (error) {
    // A record whose stored form cannot be decoded fails its schema (readers quarantine it).
    ctx.addIssue({ code: 'custom', message: (error as Error).message, input: raw });
    return z.NEVER;
  }
}, UserMemoryRecord);
