import { z } from 'zod';

/**
 * Parts of the plan settings (`plan-config.ts`): `[min, max]` ranges with their defaults,
 * dialogue-length profiles and the question targets per user.
 */

/** A `[min, max]` range of non-negative numbers, `[min, max]` by default. */
export const Range = (min: number, max: number) =>
  z
    .tuple([z.number().min(0), z.number().min(0)])
    .refine(([a, b]) => a <= b, 'range must be [min, max]')
    .default([min, max]);
/** A `[min, max]` range of non-negative integers, `[min, max]` by default. */
export const IntRange = (min: number, max: number) =>
  z
    .tuple([z.number().int().min(0), z.number().int().min(0)])
    .refine(([a, b]) => a <= b, 'range must be [min, max]')
    .default([min, max]);

/** A dialogue-length profile (PersonaVLM: 32k context = 20–100 rounds, 128k = 100–500). */
export const ContextProfile = z
  .object({ rounds: IntRange(20, 100).describe('Rounds of dialogue per user, inclusive range.') })
  .strict();

/** Question counts per family and task weights (a task missing from `weights` gets weight 1). */
export const QaConfig = z
  .object({
    personaMme: z
      .number()
      .int()
      .min(0)
      .default(14)
      .describe('Persona-MME questions per user (14 tasks, SPEC.md §1).'),
    personaMem: z
      .number()
      .int()
      .min(0)
      .default(7)
      .describe('PersonaMem questions per user (7 query types, FORMATS.md §4).'),
    locomo: z.number().int().min(0).default(10).describe('LoCoMo questions per user (5 categories).'),
    weights: z
      .record(z.string(), z.number().min(0))
      .default({})
      .describe(
        'Relative weight of each task, keyed `family:task` or bare task name (e.g. LoCoMo M²A mix multi_hop 2 : temporal 3 : open_domain 1 : single_hop 4). Unset tasks take the published mix (src/qa/tasks.ts PUBLISHED_TASK_WEIGHTS: PersonaMem 32k types, LoCoMo categories), else 1.',
      ),
    atEndRatio: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        'Share of questions asked at the end of the history; the rest in situ at earlier session ends.',
      ),
    personaMemMinTokens: z
      .number()
      .int()
      .min(0)
      .default(15_560)
      .describe(
        "PersonaMem questions are asked in situ only at session ends whose history reaches this many tokens (gpt-tokenizer; 15,560 = the real questions_32k.csv's shortest context, below which export leaves a question out); a user whose whole history is shorter is asked at its end. 0 asks them at any session end.",
      ),
    tokensPerRound: z
      .number()
      .positive()
      .default(70)
      .describe(
        'Tokens (gpt-tokenizer) a dialogue round (user + assistant turn) is reckoned at when the plan, before any text exists, judges how long a history is. The offline realizer writes 71–112 per round over a long history (1st percentile 71, median 85); a lower figure asks later, never too early.',
      ),
  })
  .strict();
export type QaConfig = z.infer<typeof QaConfig>;
