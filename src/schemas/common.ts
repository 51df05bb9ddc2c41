import { z } from 'zod';

/** Version stamped on every record that crosses a stage; bump on breaking changes. */
export const SCHEMA_VERSION = 1 as const;

/** ISO-8601 timestamp with minutes, UTC, e.g. `2024-03-05T14:07:00.000Z`. */
export const IsoTime = z.iso.datetime();
export type IsoTime = z.infer<typeof IsoTime>;

export const BigFive = z
  .object({
    openness: z.number().min(1).max(5),
    conscientiousness: z.number().min(1).max(5),
    extraversion: z.number().min(1).max(5),
    agreeableness: z.number().min(1).max(5),
    neuroticism: z.number().min(1).max(5),
  })
  .strict();
export type BigFive = z.infer<typeof BigFive>;
export const BIG_FIVE_TRAITS = [
  'openness',
  'conscientiousness',
  'extraversion',
  'agreeableness',
  'neuroticism',
] as const;
export type BigFiveTrait = (typeof BIG_FIVE_TRAITS)[number];

export const Split = z.enum(['train', 'test']);
export type Split = z.infer<typeof Split>;

/** A record that failed a stage, kept with its reason (never silently dropped). */
export const QuarantineRecord = z
  .object({
    stage: z.string(),
    inputId: z.string(),
    reason: z.string(),
    code: z.string().optional(),
    check: z.string().optional(),
    details: z.unknown().optional(),
  })
  .strict();
export type QuarantineRecord = z.infer<typeof QuarantineRecord>;
