import { z } from 'zod';

/**
 * Where a field of a file/hub record goes. Keys are persona attributes, values are the column
 * (or JSON key) names in the file. Only `description` is required; attributes the file lacks
 * are filled deterministically from the builtin tables.
 */
export const PersonaFieldMapping = z
  .object({
    description: z
      .string()
      .min(1)
      .default('persona')
      .describe(
        'Column holding the one-line persona description (PersonaHub: `persona`, or `input persona`).',
      ),
    name: z.string().min(1).optional().describe("Column holding the persona's name."),
    age: z.string().min(1).optional().describe('Column holding the age.'),
    gender: z.string().min(1).optional().describe('Column holding the gender.'),
    occupation: z.string().min(1).optional().describe('Column holding the occupation.'),
    city: z.string().min(1).optional().describe('Column holding the city.'),
    country: z.string().min(1).optional().describe('Column holding the country.'),
    family: z.string().min(1).optional().describe('Column holding the family situation.'),
    lifeStage: z
      .string()
      .min(1)
      .optional()
      .describe('Column holding the life stage (student, working, retired …).'),
    education: z.string().min(1).optional().describe('Column holding the education.'),
    interests: z
      .string()
      .min(1)
      .optional()
      .describe('A list column, or a string split on commas / semicolons.'),
  })
  .strict();
export type PersonaFieldMapping = z.infer<typeof PersonaFieldMapping>;

/** Weights for the integer scores 1..5 (any non-negative numbers, normalised when drawn). */
export const ScoreWeights = z
  .array(z.number().min(0))
  .length(5)
  .refine((weights) => weights.some((w) => w > 0), 'at least one weight must be positive');
export type ScoreWeights = z.infer<typeof ScoreWeights>;

/** Options of the builtin generator. */
export const BuiltinPersonasConfig = z
  .object({
    minAge: z.number().int().min(14).max(100).default(18).describe('Youngest adult generated.'),
    maxAge: z.number().int().min(14).max(100).default(82).describe('Oldest generated.'),
    genders: z
      .object({
        female: z.number().min(0).default(0.49).describe('Weight of female personas.'),
        male: z.number().min(0).default(0.49).describe('Weight of male personas.'),
        nonBinary: z.number().min(0).default(0.02).describe('Weight of non-binary personas.'),
      })
      .strict()
      .prefault({})
      .describe('Share of each gender, normalised.'),
    retirementAge: z
      .number()
      .int()
      .min(40)
      .max(100)
      .default(60)
      .describe('Age from which a persona may be retired.'),
    retiredShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.7)
      .describe(
        'Probability a persona at or above `retirementAge` is retired (forced when no job fits the age).',
      ),
    interests: z
      .tuple([z.number().int().min(1), z.number().int().min(1)])
      .default([2, 4])
      .describe('Interests per persona, inclusive range.'),
    regionTiers: z
      .object({
        tier1: z.number().min(0).default(0.3).describe('Weight of tier-1 cities.'),
        tier2: z.number().min(0).default(0.3).describe('Weight of tier-2 cities.'),
        tier3: z.number().min(0).default(0.25).describe('Weight of tier-3 cities.'),
        rural: z.number().min(0).default(0.15).describe('Weight of rural areas.'),
      })
      .strict()
      .prefault({})
      .describe('Region tier mix (VitaBench 2.0 profiles use tier-1 … rural); weights, normalised.'),
  })
  .strict()
  .refine((config) => config.minAge <= config.maxAge, 'minAge must be <= maxAge')
  .refine((config) => config.interests[0] <= config.interests[1], 'interests range must be [min, max]');

/** A local jsonl / csv / parquet file of personas. */
export const FilePersonasConfig = z
  .object({
    path: z.string().min(1).describe('The persona file, relative to the working directory.'),
    format: z
      .enum(['auto', 'jsonl', 'json', 'csv', 'parquet'])
      .default('auto')
      .describe(
        '`auto` picks by extension (.jsonl/.ndjson, .json = one object or an array of objects, .csv, .parquet).',
      ),
    mapping: PersonaFieldMapping.prefault({}).describe('Which column holds which persona attribute.'),
  })
  .strict();

/** A dataset file on the Hugging Face Hub, downloaded once into a cache directory. */
export const HubPersonasConfig = z
  .object({
    repo: z.string().min(1).default('proj-persona/PersonaHub').describe('Dataset repo.'),
    file: z
      .string()
      .min(1)
      .default('persona.jsonl')
      .describe('File inside the repo (jsonl, csv or parquet).'),
    revision: z.string().min(1).default('main').describe('Branch, tag or commit.'),
    hubUrl: z
      .string()
      .url()
      .optional()
      .describe("Hub endpoint (a mirror or a local stand-in). Unset: the library's default huggingface.co."),
    tokenEnv: z
      .string()
      .min(1)
      .default('HF_TOKEN')
      .describe('Name of the environment variable holding the access token (never the token itself).'),
    cacheDir: z
      .string()
      .min(1)
      .default('.pf-cache/hub')
      .describe('Cache directory; the file is downloaded once.'),
    refresh: z
      .boolean()
      .default(false)
      .describe('Re-resolve the revision on the Hub even when a cached copy exists.'),
    maxRecords: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Read at most this many records (0 = all); sampling happens within them.'),
    format: z
      .enum(['auto', 'jsonl', 'json', 'csv', 'parquet'])
      .default('auto')
      .describe('`auto` picks by extension (.jsonl/.ndjson, .json, .csv, .parquet).'),
    mapping: PersonaFieldMapping.prefault({}).describe(
      'Which column holds which persona attribute (PersonaHub: `persona`).',
    ),
  })
  .strict();

/**
 * The `personas:` section of a pipeline file. Every default here is a documented domain number
 * (SPEC.md §1: 700 personas, 500 train and 200 test, disjoint; Big Five integers 1–5).
 *
 * @example
 * PersonasConfig.parse({ source: 'hub', hub: { hubUrl: 'http://127.0.0.1:9000' } });
 */
export const PersonasConfig = z
  .object({
    source: z
      .enum(['builtin', 'file', 'hub'])
      .default('builtin')
      .describe(
        '`builtin`: generated from tables; `file`: a local persona file; `hub`: a dataset on the Hugging Face Hub (PersonaHub by default).',
      ),
    train: z
      .number()
      .int()
      .min(0)
      .max(10_000_000, 'at most 10,000,000 users per split (shard larger corpora)')
      .default(500)
      .describe('Train users (SPEC.md §1).'),
    test: z
      .number()
      .int()
      .min(0)
      .max(10_000_000, 'at most 10,000,000 users per split (shard larger corpora)')
      .default(200)
      .describe('Test users, disjoint from train (SPEC.md §1).'),
    builtin: BuiltinPersonasConfig.prefault({}).describe(
      'Options of the built-in persona generator (`source: builtin`, and attributes a file lacks).',
    ),
    file: FilePersonasConfig.optional().describe('Required when `source: file`.'),
    hub: HubPersonasConfig.prefault({}).describe('The Hub dataset read when `source: hub`.'),
    bigFive: z
      .object({
        weights: ScoreWeights.default([1, 1, 1, 1, 1]).describe(
          'Weights of the scores 1..5, for every trait without its own (normalised).',
        ),
        traits: z
          .object({
            openness: ScoreWeights.optional().describe('Weights of openness scores 1..5.'),
            conscientiousness: ScoreWeights.optional().describe('Weights of conscientiousness scores 1..5.'),
            extraversion: ScoreWeights.optional().describe('Weights of extraversion scores 1..5.'),
            agreeableness: ScoreWeights.optional().describe('Weights of agreeableness scores 1..5.'),
            neuroticism: ScoreWeights.optional().describe('Weights of neuroticism scores 1..5.'),
          })
          .strict()
          .prefault({})
          .describe('Per-trait weights of the scores 1..5, overriding `weights`.'),
      })
      .strict()
      .prefault({})
      .describe(
        'Big Five score distribution: weights of the integers 1..5 for every trait, optionally overridden per trait. PersonaVLM draws "random Big Five scores" (SPEC.md §1), so the default is uniform.',
      ),
    enrichment: z
      .object({
        role: z
          .string()
          .min(1)
          .default('realizer')
          .describe('Model role that writes the enriched persona (its endpoint, or offline).'),
        temperature: z
          .number()
          .min(0)
          .max(2)
          .default(0.7)
          .describe('Sampling temperature of enrichment calls.'),
        maxTokens: z
          .number()
          .int()
          .min(64)
          .default(700)
          .describe('Completion-token cap of one enrichment call.'),
      })
      .strict()
      .prefault({})
      .describe('Enrichment through the `realizer` role (offline backend when the role has no endpoint).'),
  })
  .strict()
  .refine((config) => config.source !== 'file' || config.file !== undefined, {
    message: 'source "file" needs a `file:` section with at least `path`',
    path: ['file'],
  });
export type PersonasConfig = z.infer<typeof PersonasConfig>;
export type PersonasConfigInput = z.input<typeof PersonasConfig>;
export type BuiltinPersonasConfig = z.infer<typeof BuiltinPersonasConfig>;
export type FilePersonasConfig = z.infer<typeof FilePersonasConfig>;
export type HubPersonasConfig = z.infer<typeof HubPersonasConfig>;
