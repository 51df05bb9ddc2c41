import { z } from 'zod';

const IntRange = z.tuple([z.number().int().min(1), z.number().int().min(1)]);

/** Per-type top-k of one PersonaVLM retrieval (SPEC.md §1: semantic 4, episodic 2, procedural 2). */
export const TopKConfig = z
  .object({
    semantic: z
      .number()
      .int()
      .min(0)
      .default(4)
      .describe('Semantic memories returned per retrieval (PersonaVLM: 4).'),
    episodic: z
      .number()
      .int()
      .min(0)
      .default(2)
      .describe('Episodic memories returned per retrieval (PersonaVLM: 2).'),
    procedural: z
      .number()
      .int()
      .min(0)
      .default(2)
      .describe('Procedural memories returned per retrieval (PersonaVLM: 2).'),
  })
  .strict();
export type TopKConfig = z.infer<typeof TopKConfig>;

/** PEM, SPEC.md §1: `λ_m = base − amplitude·cos(π·min(m, horizon)/horizon)`, skip when all scores equal `neutral`. */
export const PemConfig = z
  .object({
    lambdaBase: z
      .number()
      .default(0.7)
      .describe('PEM: base of the update weight λ_m = base − amplitude·cos(π·min(m, horizon)/horizon).'),
    lambdaAmplitude: z
      .number()
      .default(0.2)
      .describe("PEM: amplitude of the update weight λ_m's cosine term."),
    horizon: z
      .number()
      .int()
      .min(1)
      .default(50)
      .describe('PEM: observations m after which λ_m stops changing.'),
    neutral: z
      .number()
      .int()
      .min(1)
      .max(5)
      .default(3)
      .describe('PEM: the neutral Big Five score; an update is skipped when every score equals it.'),
  })
  .strict();
export type PemConfig = z.infer<typeof PemConfig>;

export const RetrievalConfig = z
  .object({
    mode: z
      .enum(['hybrid', 'bm25', 'dense'])
      .default('hybrid')
      .describe('Which paths are fused (RRF) for PersonaVLM retrieval.'),
    topK: TopKConfig.prefault({}).describe(
      'Memories returned per type by one retrieval at evaluation (fixed k).',
    ),
    trainingTopK: z
      .object({
        semantic: IntRange.default([3, 6]).describe(
          'Range of semantic k per training retrieval (SPEC.md §1: U[3,6]).',
        ),
        episodic: IntRange.default([2, 5]).describe(
          'Range of episodic k per training retrieval (SPEC.md §1: U[2,5]).',
        ),
        procedural: IntRange.default([2, 2]).describe('Range of procedural k per training retrieval.'),
      })
      .strict()
      .prefault({})
      .describe('Per-call k ranges for training data (SPEC.md §1: episodic U[2,5], semantic U[3,6]).'),
    sampleTopK: z
      .boolean()
      .default(true)
      .describe('Draw k per call from `trainingTopK` (training data) instead of the fixed `topK`.'),
    rrfK: z.number().min(0).default(60).describe('Reciprocal rank fusion constant (M²A: k = 60).'),
    candidatesPerPath: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe('Candidates taken from each path before fusion.'),
    bm25: z
      .object({
        k1: z.number().min(0).default(1.2).describe('BM25 term-frequency saturation k1.'),
        b: z.number().min(0).max(1).default(0.75).describe('BM25 length normalisation b.'),
      })
      .strict()
      .prefault({})
      .describe('BM25 parameters of the lexical path.'),
    maxRetrievals: z
      .number()
      .int()
      .min(1)
      .default(3)
      .describe('Most retrievals per reasoning trajectory (SPEC.md §1).'),
  })
  .strict();
export type RetrievalConfig = z.infer<typeof RetrievalConfig>;

export const PersonaTreeConfig = z
  .object({
    schemaPath: z
      .string()
      .nullable()
      .default(null)
      .describe(
        "Schema file: Inside Out's published tree (`human_tree_en.json` format) or a wrapper `{id, extensible, tree}`; null = Inside Out's English tree shipped in `data/persona-tree/`.",
      ),
    chunkTurns: z
      .number()
      .int()
      .min(1)
      .default(3)
      .describe(
        "Dialogue rounds (a user turn with the assistant's reply) per PersonaTree window (Inside Out: w = 3 works best); every window starts with the user.",
      ),
    leafMaxChars: z
      .number()
      .int()
      .min(16)
      .default(240)
      .describe('Per-leaf value budget in characters; longer values are compressed deterministically.'),
    allowExtendedAdd: z
      .boolean()
      .default(true)
      .describe('ADD may create a new leaf under an existing schema branch (extended-schema policy).'),
    maxExtensionDepth: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe('Deepest a new (extended) leaf may sit below an existing branch.'),
  })
  .strict();
export type PersonaTreeConfig = z.infer<typeof PersonaTreeConfig>;

export const DualLayerConfig = z
  .object({
    perPathTopK: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe('Candidates per path (M²A: top-10 each), fused by RRF.'),
    rrfK: z.number().min(0).default(60).describe('Reciprocal rank fusion constant (M²A: k = 60).'),
    topK: z.number().int().min(1).default(10).describe('Memories returned after fusion.'),
  })
  .strict();
export type DualLayerConfig = z.infer<typeof DualLayerConfig>;

export const VitaMemoryConfig = z
  .object({
    rewriteMaxTokens: z
      .number()
      .int()
      .min(1)
      .default(4096)
      .describe('Rewrite-summary backend budget (VitaBench: 4,096 tokens).'),
    ragChunkTokens: z
      .number()
      .int()
      .min(1)
      .default(512)
      .describe('RAG baseline: tokens per chunk of the history.'),
    ragChunkOverlap: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('RAG baseline: tokens shared by consecutive chunks.'),
    ragTopK: z.number().int().min(1).default(8).describe('RAG baseline: chunks returned per query.'),
    ragThreshold: z
      .number()
      .min(-1)
      .max(1)
      .default(0.3)
      .describe('RAG baseline: lowest cosine similarity of a returned chunk.'),
  })
  .strict();
export type VitaMemoryConfig = z.infer<typeof VitaMemoryConfig>;

/** The `memory:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const MemoryConfig = z
  .object({
    sessionGapMinutes: z
      .number()
      .min(1)
      .default(60)
      .describe('A gap of at least this many minutes starts a new session (PersonaVLM t_s).'),
    proceduralMaxEntries: z
      .number()
      .int()
      .min(1)
      .default(5)
      .describe('Procedural memory keeps at most this many entries (PersonaVLM).'),
    pem: PemConfig.prefault({}).describe("PersonaVLM's PEM personality update schedule."),
    retrieval: RetrievalConfig.prefault({}).describe(
      'PersonaVLM memory retrieval (hybrid BM25 + dense, fused by RRF) for reasoning trajectories.',
    ),
    tree: PersonaTreeConfig.prefault({}).describe(
      'Inside Out PersonaTree supervision: schema, window size, leaf budget, extension policy.',
    ),
    dualLayer: DualLayerConfig.prefault({}).describe(
      'M²A dual-layer memory retrieval (per-path top-k fused by RRF).',
    ),
    vita: VitaMemoryConfig.prefault({}).describe('VitaBench memory baselines (rewrite summary, RAG).'),
    teacherRole: z
      .enum(['judge', 'realizer'])
      .default('judge')
      .describe('Model role asked for teacher targets when it has an endpoint (`judge` or `realizer`).'),
    teacher: z
      .boolean()
      .default(true)
      .describe('Ask the teacher role for targets (skipped while the role is offline).'),
    teacherOnFailure: z
      .enum(['quarantine', 'fail'])
      .default('quarantine')
      .describe(
        'A teacher target asked for and not obtained (no valid answer after retries): `quarantine` the user (retried by the next run) or `fail` the run. Never a silent null.',
      ),
    teacherTasks: z
      .array(
        z.enum([
          'semantic_write',
          'personality_inference',
          'tree_ops',
          'core_update',
          'episodic_summary',
          'procedural_update',
        ]),
      )
      .default([
        'semantic_write',
        'personality_inference',
        'tree_ops',
        'core_update',
        'episodic_summary',
        'procedural_update',
      ])
      .describe('Memory tasks a teacher is asked for.'),
    teacherSpan: z
      .enum(['session', 'trace'])
      .default('session')
      .describe(
        "How the teacher is asked: `session` = one structured call per session returning every target of it (the compact state and the session's turns sent once); `trace` = one call per trace, each re-sending its context (the same targets, several times the prompt tokens).",
      ),
    teacherSpanRounds: z
      .number()
      .int()
      .min(1)
      .default(30)
      .describe(
        "A session longer than this many user turns is asked in parts (cut where a PersonaTree chunk ends), so one answer stays within a model's output limit.",
      ),
    teacherTreeAgreement: z
      .number()
      .min(-1)
      .max(1)
      .default(0.5)
      .describe('A teacher tree-op list agrees with gold when `scoreTreeOps` reaches this.'),
    contextTurns: z
      .number()
      .int()
      .min(0)
      .default(6)
      .describe('Earlier turns of the session shown as short-term context in per-turn traces.'),
    embedderRole: z
      .string()
      .default('embedder')
      .describe('Embedding role for dense retrieval (offline embedding when it has no endpoint).'),
  })
  .strict();
export type MemoryConfig = z.infer<typeof MemoryConfig>;
