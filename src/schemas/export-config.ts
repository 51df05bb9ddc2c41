import { z } from 'zod';
import { SystemsConfig } from '../export/systems/config.js';

/** SFT task names (one per `task` column value). */
export const SftTaskName = z.enum([
  'reasoning',
  'personality_inference',
  'semantic_write',
  'core_update',
  'procedural_update',
  'episodic_summary',
  'tree_ops',
]);
export type SftTaskName = z.infer<typeof SftTaskName>;

/** RL task kinds: PersonaVLM QA by answer type, plus MemListener op lists. */
export const RlTaskName = z.enum(['open', 'mc', 'binary', 'tree_ops']);
export type RlTaskName = z.infer<typeof RlTaskName>;

/**
 * SFT mix (SPEC.md §1, PersonaVLM 78k): reasoning QA 43.6%, personality inference 10.3%, the four
 * memory types 46.1% (split evenly here). PersonaTree ops default to 0 (set them in persona-tree.yaml).
 */
const SFT_MIX = {
  reasoning: 0.436,
  personality_inference: 0.103,
  semantic_write: 0.11525,
  core_update: 0.11525,
  procedural_update: 0.11525,
  episodic_summary: 0.11525,
  tree_ops: 0,
};

/** RL mix (SPEC.md §1, PersonaVLM 5.6k): open-ended 21.0%, multiple choice 55.6%, binary 23.4%. */
const RL_MIX = { open: 0.21, mc: 0.556, binary: 0.234, tree_ops: 0 };

function mixConfig<T extends string>(names: z.ZodType<T>, defaults: Partial<Record<T, number>>) {
  return z
    .object({
      /**
       * `ratio`: keep the largest sample set whose task shares equal the weights (tasks without
       * data drop out and the rest are renormalised); `all`: keep every task with weight > 0.
       */
      mode: z.enum(['ratio', 'all']).default('ratio'),
      weights: z
        .record(z.string(), z.number().min(0))
        .default(defaults as Record<string, number>)
        .refine((weights) => Object.keys(weights).every((key) => names.safeParse(key).success), {
          message: 'unknown task name in mix weights',
        }),
      /** Upper bound on rows per split (after mixing); null = no bound. @default null */
      maxPerSplit: z.number().int().min(1).nullable().default(null),
    })
    .strict();
}

export const SftMixConfig = mixConfig(SftTaskName, SFT_MIX);
export const RlMixConfig = mixConfig(RlTaskName, RL_MIX);
export type MixConfig = z.infer<typeof SftMixConfig>;

/** The `export:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const ExportConfig = z
  .object({
    /** How users are split: `plan` keeps each plan's own split (disjoint by persona); `hash` re-splits. */
    split: z
      .object({
        by: z.enum(['plan', 'hash']).default('plan'),
        /** Share of users sent to test when `by: hash` (PersonaVLM: 200 of 700). */
        testRatio: z
          .number()
          .min(0)
          .max(1)
          .default(200 / 700),
      })
      .strict()
      .prefault({}),
    sft: z
      .object({
        mix: SftMixConfig.prefault({}),
        /** Role of retrieval results inside reasoning trajectories (ms-swift accepts `tool`). */
        retrievalRole: z.enum(['user', 'tool']).default('user'),
        /** Use the teacher's target instead of gold when one exists and agrees. @default false */
        preferTeacher: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    rl: z
      .object({ mix: RlMixConfig.prefault({}) })
      .strict()
      .prefault({}),
    eval: z
      .object({
        /** Users whose QA targets become evaluation sets (test personas by default). */
        splits: z.array(z.enum(['train', 'test'])).default(['test']),
        /** Put every QA family into every format instead of each family into its own. @default false */
        allFamiliesInEachFormat: z.boolean().default(false),
        /**
         * PersonaMem context length in tokens (gpt-tokenizer, as `persona-forge eval` counts): each
         * question's window of the user's sessions comes as close to it as the history and `personamemContextRange` allow.
         * @default 24846 (the mean `context_length_in_tokens` of the real questions_32k.csv)
         */
        personamemContextTokens: z.number().int().min(1).default(24_846),
        /**
         * Shortest and longest PersonaMem context in tokens (gpt-tokenizer): a question whose
         * context cannot be made within them is left out of the PersonaMem export.
         * @default { min: 15560, max: 29539 } (the real questions_32k.csv's shortest and longest)
         */
        personamemContextRange: z
          .object({ min: z.number().int().min(0), max: z.number().int().min(1) })
          .strict()
          .refine((range) => range.min <= range.max, { message: 'min must not exceed max' })
          .default({ min: 15_560, max: 29_539 }),
        /**
         * Read and ignored: PersonaMem token columns are now counted with gpt-tokenizer. Accepted so
         * run directories whose manifest records it (runs before the count) still load.
         */
        charsPerToken: z.number().min(1).optional(),
      })
      .strict()
      .prefault({}),
    /** Prefix joined to the plan's pool-relative image paths in `images` columns. @default "images" */
    imageRoot: z.string().default('images'),
    /**
     * Copy every image the exported users reference from the pool into `export/<imageRoot>/`, so
     * the export (and a Hub push) is self-contained. @default true
     */
    copyImages: z.boolean().default(true),
    /** Where the pool images are, relative to the run directory (the built-in pool's folder). @default "plan/images" */
    imagePoolDir: z.string().default('plan/images'),
    /** Write `.parquet` beside every `.jsonl`. @default true */
    parquet: z.boolean().default(true),
    card: z
      .object({
        license: z.string().default('apache-2.0'),
        prettyName: z.string().nullable().default(null),
        language: z.array(z.string()).default(['en']),
      })
      .strict()
      .prefault({}),
    /** Published-system evaluation sets (M²A merged conversations, VitaBench 2.0 tasks); both off by default. */
    systems: SystemsConfig.prefault({}),
  })
  .strict();
export type ExportConfig = z.infer<typeof ExportConfig>;
