/**
 * The browser's boundaries in zod: the run files it reads beside the corpus (the parts of
 * validation.json and quarantine.jsonl it uses; other fields pass) and its HTTP queries.
 */
import { z } from 'zod';
import { InputError } from '../errors/index.js';

const count = z.number().int().min(0);

export const ValidatedUserRecord = z.looseObject({
  userId: z.string(),
  split: z.string().default(''),
  sessions: count.default(0),
  turns: count.default(0),
  imageTurns: count.default(0),
  qa: count.default(0),
  failures: z.record(z.string(), z.number()).default({}),
  quarantined: z.boolean().default(false),
});

export const UnitRecord = z.looseObject({
  userId: z.string(),
  unit: z.enum(['turn', 'session']),
  id: z.string(),
  check: z.string(),
  reason: z.string(),
  turns: z.array(z.string()),
});

export const Example = z.looseObject({
  userId: z.string(),
  location: z.string().optional(),
  id: z.string().optional(),
  reason: z.string().optional(),
  duplicateOf: z.string().optional(),
  similarity: z.number().optional(),
});
const Check = z.looseObject({ examples: z.array(Example).default([]) });

/** A judge's entry; `judges` also holds non-check fields (the mode), read as having no examples. */
export const JudgeEntry = z.union([
  Check,
  z.unknown().transform(() => ({ examples: [] as Array<z.infer<typeof Example>> })),
]);

/** The sections of validation.json the browser reads. */
export const ValidationSections = z.looseObject({
  users: z.array(ValidatedUserRecord).default([]),
  units: z.array(UnitRecord).default([]),
  droppedQa: z.array(z.looseObject({ userId: z.string(), qaId: z.string(), reason: z.string() })).default([]),
  rules: z.record(z.string(), Check).default({}),
  judges: z.record(z.string(), JudgeEntry).default({}),
  dedup: z.looseObject({ examples: z.array(Example).default([]) }).default({ examples: [] }),
});

export const QuarantineLine = z.looseObject({
  stage: z.string(),
  inputId: z.string(),
  reason: z.string(),
  check: z.string().optional(),
  code: z.string().optional(),
  details: z.looseObject({ userId: z.string().optional(), unit: z.string().optional() }).optional(),
});

/** `GET /api/samples` query. */
export const SamplesQuery = z.object({
  file: z.string().min(1).optional(),
  task: z.string().optional(),
  user: z.string().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

/** `value` parsed by `schema`, or an InputError naming `source` and the first bad field. */
export function parseAt<T extends z.ZodType>(schema: T, value: unknown, source: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? undefined : issue.path.join('.');
  throw new InputError(source, issue?.message ?? 'invalid', field === undefined ? {} : { field });
}
