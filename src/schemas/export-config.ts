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
      mode: z
        .enum(['ratio', 'all'])
        .default('ratio')
        .describe(
          '`ratio`: keep the largest sample set whose task shares equal the weights (tasks without data drop out and the rest are renormalised); `all`: keep every task with weight > 0.',
        ),
      weights: z
        .record(z.string(), z.number().min(0))
        .default(defaults as Record<string, number>)
        .refine((weights) => Object.keys(weights).every((key) => names.safeParse(key).success), {
          message: 'unknown task name in mix weights',
        })
        .describe('Task → weight; shares are the weights divided by their sum (a task at 0 is left out).'),
      maxPerSplit: z
        .number()
        .int()
        .min(1)
        .nullable()
        .default(null)
        .describe('Upper bound on rows per split (after mixing); null = no bound.'),
    })
    .strict();
}

export const SftMixConfig = mixConfig(SftTaskName, SFT_MIX);
export const RlMixConfig = mixConfig(RlTaskName, RL_MIX);
export type MixConfig = z.infer<typeof SftMixConfig>;

/** The `export:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const ExportConfig = z
  .object({
    split: z
      .object({
        by: z
          .enum(['plan', 'hash'])
          .default('plan')
          .describe(
            "`plan` keeps each plan's own split (disjoint by persona); `hash` re-splits users by a hash of their id.",
          ),
        testRatio: z
          .number()
          .min(0)
          .max(1)
          .default(200 / 700)
          .describe('Share of users sent to test when `by: hash` (PersonaVLM: 200 of 700).'),
      })
      .strict()
      .prefault({})
      .describe(
        "How users are split: `plan` keeps each plan's own split (disjoint by persona); `hash` re-splits.",
      ),
    sft: z
      .object({
        mix: SftMixConfig.prefault({}).describe('Which SFT tasks are kept, in what shares.'),
        retrievalRole: z
          .enum(['user', 'tool'])
          .default('user')
          .describe('Role of retrieval results inside reasoning trajectories (ms-swift accepts `tool`).'),
        preferTeacher: z
          .boolean()
          .default(false)
          .describe("Use the teacher's target instead of gold when one exists and agrees."),
      })
      .strict()
      .prefault({})
      .describe(
        'The SFT rows: task mix, the role of retrieval results and whether teacher targets are used.',
      ),
    rl: z
      .object({
        mix: RlMixConfig.prefault({}).describe(
          'Which RL tasks (answer types and tree_ops) are kept, in what shares.',
        ),
      })
      .strict()
      .prefault({})
      .describe('The RL rows: their task mix.'),
    eval: z
      .object({
        splits: z
          .array(z.enum(['train', 'test']))
          .default(['test'])
          .describe('Users whose QA targets become evaluation sets (test personas by default).'),
        allFamiliesInEachFormat: z
          .boolean()
          .default(false)
          .describe('Put every QA family into every format instead of each family into its own.'),
        personamemContextTokens: z
          .number()
          .int()
          .min(1)
          .default(24_846)
          .describe(
            "PersonaMem context length in tokens (gpt-tokenizer, as `persona-forge eval` counts): each question's window of the user's sessions comes as close to it as the history and `personamemContextRange` allow.",
          ),
        personamemContextRange: z
          .object({
            min: z.number().int().min(0).describe('Shortest context in tokens.'),
            max: z.number().int().min(1).describe('Longest context in tokens.'),
          })
          .strict()
          .refine((range) => range.min <= range.max, { message: 'min must not exceed max' })
          .default({ min: 15_560, max: 29_539 })
          .describe(
            'Shortest and longest PersonaMem context in tokens (gpt-tokenizer; the real questions_32k.csv spans 15,560–29,539): a question whose context cannot be made within them is left out of the PersonaMem export.',
          ),
        charsPerToken: z
          .number()
          .min(1)
          .optional()
          .describe(
            'Read and ignored: PersonaMem token columns are now counted with gpt-tokenizer. Accepted so run directories whose manifest records it (runs before the count) still load.',
          ),
      })
      .strict()
      .prefault({})
      .describe('Evaluation sets (Persona-MME, PersonaMem, LoCoMo shapes) written under `export/eval/`.'),
    imageRoot: z
      .string()
      .default('images')
      .describe("Prefix joined to the plan's pool-relative image paths in `images` columns."),
    copyImages: z
      .boolean()
      .default(true)
      .describe(
        'Copy every image the exported users reference from the pool into `export/<imageRoot>/`, so the export (and a Hub push) is self-contained.',
      ),
    imagePoolDir: z
      .string()
      .default('plan/images')
      .describe("Where the pool images are, relative to the run directory (the built-in pool's folder)."),
    parquet: z.boolean().default(true).describe('Write `.parquet` beside every `.jsonl`.'),
    card: z
      .object({
        license: z
          .string()
          .default('apache-2.0')
          .describe("License id in the card's front matter (a Hugging Face license identifier)."),
        prettyName: z
          .string()
          .nullable()
          .default(null)
          .describe('Title of the dataset card; null uses a generic title.'),
        language: z.array(z.string()).default(['en']).describe("Language codes in the card's front matter."),
      })
      .strict()
      .prefault({})
      .describe('The Hugging Face dataset card (`export/README.md`).'),
    systems: SystemsConfig.prefault({}).describe(
      'Published-system evaluation sets (M²A merged conversations, VitaBench 2.0 tasks); both off by default.',
    ),
  })
  .strict();
export type ExportConfig = z.infer<typeof ExportConfig>;
