import { z } from 'zod';

/** Names of the judge checks (served by the `judge` role, or offline heuristics). */
export const JudgeCheckName = z.enum(['coherence', 'safety', 'persona_consistency', 'fact_expressed']);
export type JudgeCheckName = z.infer<typeof JudgeCheckName>;

/**
 * Words the offline safety heuristic refuses (lower-case, matched on word boundaries). A short,
 * deliberately conservative default: the offline realizer never produces them, an LLM realizer
 * that does is flagged for review.
 */
const DEFAULT_BLOCKLIST = [
  'kill yourself',
  'suicide method',
  'bomb recipe',
  'credit card number',
  'social security number',
  'racial slur',
  'child abuse',
];

export const JudgeConfig = z
  .object({
    enabled: z.boolean().default(true).describe('Run the judge checks at all.'),
    checks: z
      .array(JudgeCheckName)
      .default(['coherence', 'safety', 'persona_consistency', 'fact_expressed'])
      .describe(
        'Judge checks run on each sampled session: coherence, safety, persona_consistency, fact_expressed.',
      ),
    sessionsPerUser: z
      .number()
      .int()
      .min(1)
      .default(2)
      .describe(
        'Sessions per user sent to a model judge (cost bound; offline heuristics see every session).',
      ),
    sessionsPerCall: z
      .number()
      .int()
      .min(1)
      .default(4)
      .describe(
        'Sessions packed into one model judge call (a failed pack is retried one session at a time).',
      ),
    askSettled: z
      .boolean()
      .default(false)
      .describe(
        'Also ask the model judge about planned facts the check-on-write and the rule reader already settled as said (they count as expressed without it).',
      ),
    minScore: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe('A judge score (0–1) below this fails the check.'),
    quarantine: z
      .boolean()
      .default(true)
      .describe('Quarantine users failing a judge check (rule failures always quarantine).'),
    blocklist: z
      .array(z.string().min(1))
      .default(DEFAULT_BLOCKLIST)
      .describe('Phrases the offline safety check refuses (lower-case, matched on word boundaries).'),
    maxRepeatsPerSession: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe(
        'Offline coherence: a session may repeat the same normalised turn text at most this many times.',
      ),
  })
  .strict();
export type JudgeConfig = z.infer<typeof JudgeConfig>;

/** MinHash + LSH near-duplicate detection (word shingles). */
export const DedupConfig = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe('Run near-duplicate detection over utterances and dialogues.'),
    shingleWords: z.number().int().min(1).default(3).describe('Words per shingle.'),
    numPerm: z.number().int().min(8).default(64).describe('MinHash permutations; must equal bands × rows.'),
    bands: z
      .number()
      .int()
      .min(1)
      .default(8)
      .describe('LSH bands (rows = numPerm / bands); 8×8 puts the S-curve knee near Jaccard 0.77.'),
    utteranceThreshold: z
      .number()
      .min(0)
      .max(1)
      .default(0.9)
      .describe('Estimated Jaccard at or above which two utterances are near-duplicates.'),
    dialogueThreshold: z
      .number()
      .min(0)
      .max(1)
      .default(0.8)
      .describe('Estimated Jaccard at or above which two whole dialogues (user turns) are near-duplicates.'),
    minUtteranceWords: z
      .number()
      .int()
      .min(1)
      .default(8)
      .describe('Utterances shorter than this (words) are skipped: greetings repeat legitimately.'),
    maxDuplicateUtteranceRatio: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        "A user is quarantined when more than this fraction of their user utterances are near-duplicates of earlier utterances (their own or another user's).",
      ),
    quarantineDuplicateDialogues: z
      .boolean()
      .default(true)
      .describe("Quarantine a user whose whole dialogue near-duplicates an earlier user's."),
  })
  .strict()
  .refine((value) => value.numPerm % value.bands === 0, {
    message: 'numPerm must be a multiple of bands',
    path: ['bands'],
  });
export type DedupConfig = z.infer<typeof DedupConfig>;

/** The `validate:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const ValidateConfig = z
  .object({
    sessionGapMinutes: z
      .number()
      .min(0)
      .default(60)
      .describe('t_s: a gap of at least this many minutes starts a new session (SPEC.md §1: 60).'),
    maxRetrievals: z
      .number()
      .int()
      .min(1)
      .default(3)
      .describe('Most `<retrieve>` steps per reasoning trajectory (SPEC.md §1: 3).'),
    mcOptions: z
      .number()
      .int()
      .min(2)
      .default(4)
      .describe('Options of a multiple-choice question (Persona-MME / PersonaMem: 4).'),
    slotKeywordFraction: z
      .number()
      .min(0)
      .max(1)
      .default(1)
      .describe("Fraction of a slot's keywords its turn must contain to count as expressed."),
    imagePoolDir: z
      .string()
      .nullable()
      .default(null)
      .describe(
        'Image pool folder, relative to the run directory (the built-in pool is `plan/images`); when set, every pool image file must exist there.',
      ),
    maxExamplesPerCheck: z
      .number()
      .int()
      .min(0)
      .default(20)
      .describe('Failing examples kept per check in validation.json.'),
    strict: z
      .boolean()
      .default(false)
      .describe(
        'Fail the run (exit 1, after writing everything) when a fidelity figure is off its target, as `run --strict` does. Without it the alarms are printed at the end of the run.',
      ),
    judges: JudgeConfig.prefault({}).describe(
      'Judge checks (a model judge, or offline heuristics when the judge role has no endpoint).',
    ),
    dedup: DedupConfig.prefault({}).describe('MinHash + LSH near-duplicate detection over word shingles.'),
  })
  .strict();
export type ValidateConfig = z.infer<typeof ValidateConfig>;

/** One failing example kept in validation.json. */
export const FailureExample = z
  .object({ userId: z.string(), location: z.string(), reason: z.string() })
  .strict();

/**
 * `<run-dir>/validation.json`: what the validate stage found (kept here, beside its config, so the
 * report module can read it with schemas only). Counts are per failure; `users` per failing user.
 */
export const ValidationReport = z
  .object({
    schemaVersion: z.literal(1),
    offline: z
      .boolean()
      .describe('True when the judges were offline heuristics or the corpus came from the offline realizer.'),
    judgeMode: z.string(),
    realizers: z.record(z.string(), z.number().int()),
    totals: z
      .object({
        users: z.number().int(),
        sessions: z.number().int(),
        turns: z.number().int(),
        userTurns: z.number().int(),
        imageTurns: z.number().int(),
        qaTargets: z.number().int(),
        slots: z.number().int(),
        trajectories: z.number().int(),
        traces: z.number().int(),
        usersWithMemory: z.number().int(),
        quarantinedUsers: z.number().int(),
        quarantinedUnits: z
          .number()
          .int()
          .optional()
          .describe('Rounds and sessions removed from users that are otherwise kept (absent in older runs).'),
        droppedQa: z
          .number()
          .int()
          .optional()
          .describe(
            'Questions left out because their evidence sat in a removed unit (absent in older runs).',
          ),
        ruleFailures: z.number().int(),
        judgeFailures: z.number().int(),
      })
      .strict(),
    rules: z.record(
      z.string(),
      z
        .object({
          description: z.string(),
          failures: z.number().int(),
          users: z.number().int(),
          examples: z.array(FailureExample),
        })
        .strict(),
    ),
    judges: z.record(
      z.string(),
      z
        .object({
          mode: z.string(),
          evaluated: z.number().int(),
          failures: z.number().int(),
          meanScore: z.number().nullable(),
          examples: z.array(FailureExample.extend({ score: z.number() })),
        })
        .strict(),
    ),
    judgeUnanswered: z.number().int(),
    dedup: z
      .object({
        enabled: z.boolean(),
        utterancesChecked: z.number().int(),
        duplicateUtterances: z.number().int(),
        withinUser: z.number().int(),
        acrossUsers: z.number().int(),
        duplicateDialogues: z.number().int(),
        examples: z.array(
          z
            .object({
              id: z.string(),
              duplicateOf: z.string(),
              similarity: z.number(),
              userId: z.string(),
              duplicateOfUser: z.string(),
            })
            .strict(),
        ),
      })
      .strict(),
    fidelity: z
      .record(
        z.string(),
        z
          .object({
            description: z.string(),
            value: z.number(),
            unit: z.enum(['%', 'words', 'images', 'tokens']),
            target: z.number().nullable(),
            kind: z.enum(['max', 'about']),
            tolerance: z.number().nullable(),
            count: z.number(),
            of: z.number(),
            ok: z.boolean().nullable(),
          })
          .strict(),
      )
      .optional()
      .describe(
        "Does the corpus say what its labels say (defect rates, target 0 or a budget) and match the published shapes and proportions (measured beside the paper's or real file's figure)? Absent in runs validated before it existed.",
      ),
    units: z
      .array(
        z
          .object({
            userId: z.string(),
            unit: z.enum(['turn', 'session']),
            id: z.string(),
            check: z.string(),
            reason: z.string(),
            turns: z.array(z.string()),
          })
          .strict(),
      )
      .optional()
      .describe(
        'Rounds (`turn`: a user turn and its reply) and sessions quarantined from users otherwise kept, with the turn ids each removes (export leaves them and their memory targets out).',
      ),
    droppedQa: z
      .array(z.object({ userId: z.string(), qaId: z.string(), reason: z.string() }).strict())
      .optional()
      .describe('Questions whose evidence sat in a quarantined unit: dropped, never exported unanswerable.'),
    quarantined: z
      .array(
        z.object({ userId: z.string(), checks: z.array(z.string()), reasons: z.array(z.string()) }).strict(),
      )
      .describe('Every quarantined user with the checks that failed (export skips them).'),
    users: z
      .array(
        z
          .object({
            userId: z.string(),
            split: z.string(),
            sessions: z.number().int(),
            turns: z.number().int(),
            imageTurns: z.number().int(),
            qa: z.number().int(),
            failures: z.record(z.string(), z.number().int()),
            quarantined: z.boolean(),
          })
          .strict(),
      )
      .describe('Per-user figures for the report (turns, sessions, failures by check).'),
  })
  .strict();
export type ValidationReport = z.infer<typeof ValidationReport>;
