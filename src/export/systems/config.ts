import { z } from 'zod';

const IntRange = (min: number, max: number) =>
  z
    .tuple([z.number().int().min(1), z.number().int().min(1)])
    .refine(([a, b]) => a <= b, 'range must be [min, max]')
    .default([min, max]);

/**
 * `export.systems.m2a`: an M²A evaluation set (SPEC.md §3, FORMATS.md §6). Concept sessions are
 * spliced into a LoCoMo-format host (`hostFile`, e.g. the user's own `locomo10.json`), or, without
 * one, into each user's own dialogue converted to LoCoMo shape.
 */
export const M2aSystemConfig = z
  .object({
    enabled: z.boolean().default(false).describe('Write `export/eval/m2a/`.'),
    hostFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A LoCoMo-format file (a list like `locomo10.json`, or one record), relative to the working directory; user i gets record i mod n.',
      ),
    hostFormat: z
      .literal('locomo')
      .default('locomo')
      .describe('Format of the host file (LoCoMo is the one M²A uses).'),
    position: z.number().int().min(1).optional().describe('Insert after host session `position` (1-based).'),
    splits: z
      .array(z.enum(['train', 'test']))
      .default(['train', 'test'])
      .describe('Which users get a merged conversation.'),
    vqa: z
      .boolean()
      .default(true)
      .describe(
        'Inject one visual QA item (category 5) per concept shown in the conversation (M²A `inject_vqa_data`).',
      ),
  })
  .strict();
export type M2aSystemConfig = z.infer<typeof M2aSystemConfig>;

/**
 * `export.systems.vitabench`: VitaBench 2.0 personalization tasks (SPEC.md §4, FORMATS.md §5).
 */
export const VitaBenchSystemConfig = z
  .object({
    enabled: z.boolean().default(false).describe('Write `export/eval/vitabench/tasks.json`.'),
    subtasks: IntRange(10, 20).describe(
      'Temporally ordered subtasks per user (VitaBench 2.0: 10–20, ≈ 14 on average).',
    ),
    splits: z
      .array(z.enum(['train', 'test']))
      .default(['train', 'test'])
      .describe('Which users get a task.'),
    delayMinutes: z
      .number()
      .min(0.1)
      .default(30)
      .describe('Minutes after the last interaction of its day at which a subtask happens.'),
    maxRubrics: z
      .number()
      .int()
      .min(1)
      .default(4)
      .describe('Most rubric assertions per subtask (focal preference first).'),
    candidates: z
      .number()
      .int()
      .min(2)
      .max(8)
      .default(4)
      .describe(
        "Candidate stores per subtask: all fit the request, only the user's preference picks one (VitaBench's delivery tasks hold 1–9 stores, mostly 3–6).",
      ),
  })
  .strict();
export type VitaBenchSystemConfig = z.infer<typeof VitaBenchSystemConfig>;

/**
 * The `export.systems` section: published-system evaluation sets, both off by default.
 *
 * @example SystemsConfig.parse({ m2a: { enabled: true, hostFile: 'data/locomo10.json' } })
 */
export const SystemsConfig = z
  .object({
    m2a: M2aSystemConfig.prefault({}).describe(
      'M²A evaluation set: concept sessions spliced into a host conversation (`export/eval/m2a/`).',
    ),
    vitabench: VitaBenchSystemConfig.prefault({}).describe(
      'VitaBench 2.0 personalization tasks (`export/eval/vitabench/tasks.json`).',
    ),
  })
  .strict();
export type SystemsConfig = z.infer<typeof SystemsConfig>;
