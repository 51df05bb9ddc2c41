import { z } from 'zod';
import { ImagesConfig } from './images-config.js';
import { ContextProfile, IntRange, QaConfig, Range } from './plan-parts.js';

export { ContextProfile, QaConfig } from './plan-parts.js';

export const PLAN_PROFILES = ['generic', 'personavlm', 'persona-tree', 'm2a', 'vitabench'] as const;
export const PlanProfile = z.enum(PLAN_PROFILES);
export type PlanProfile = z.infer<typeof PlanProfile>;

/**
 * Settings of the plan stage (`plan:` section of a pipeline file), fully resolved. Every number
 * here is a documented domain default (SPEC.md); `profile` selects a preset of published-system
 * defaults that sits between these generic defaults and what the pipeline file sets.
 *
 * Drift scaling (SPEC.md §4, VitaBench 2.0 §3): a VitaBench user sees on average 36.07
 * additions, 7.52 deletions and 4.79 modifications over an average lifecycle of 1,580 days.
 * Per user we draw Poisson(mean × horizonDays / referenceHorizonDays × timeScale). With
 * `timeScale` 1 that is ≈0.9 changes per 30 days — too few for interest-evolution questions in
 * a month of dialogue — so the generic/PersonaVLM default `timeScale: 4` plays roughly four
 * months of VitaBench life per planned month (≈3.7 changes per 30 days, ≈11 per 90 days; the
 * add:delete:modify ratio is VitaBench's). The `vitabench` profile uses `counts: lifecycle`:
 * each user sees the paper's per-user counts, compressed into the planned horizon.
 */
export const PlanSettings = z
  .object({
    profile: PlanProfile.default('generic').describe(
      'Published-system preset applied under this section: generic, personavlm, persona-tree, m2a or vitabench (what the file sets wins).',
    ),
    startDate: z.iso
      .datetime()
      .default('2024-01-01T00:00:00.000Z')
      .describe("Earliest horizon start; each user's start adds up to `startJitterDays`."),
    startJitterDays: z
      .number()
      .int()
      .min(0)
      .default(180)
      .describe("Each user's start is `startDate` plus up to this many days."),
    horizonDays: z
      .object({
        train: Range(14, 30).describe('Horizon of train users in days, `[min, max]`.'),
        test: Range(30, 90).describe('Horizon of test users in days, `[min, max]`.'),
      })
      .strict()
      .prefault({})
      .describe('Horizon length in days per split (PersonaVLM: ≤ 1 month train, ≤ 3 months test).'),
    contexts: z
      .record(z.string(), ContextProfile)
      .default({ '32k': { rounds: [20, 100] }, '128k': { rounds: [100, 500] } })
      .describe('Named dialogue-length profiles.'),
    trainContexts: z
      .array(z.string())
      .min(1)
      .default(['32k'])
      .describe('Context profiles (names in `contexts`) drawn for train users.'),
    testContexts: z
      .array(z.string())
      .min(1)
      .default(['32k', '128k'])
      .describe('Context profiles (names in `contexts`) drawn for test users.'),
    roundsPerSession: IntRange(5, 15).describe('Rounds per session (M²A: 5–15 turns per session).'),
    roundGapMinutes: Range(1, 4).describe('Minutes between rounds inside a session.'),
    sessionGapMinutes: z
      .number()
      .min(1)
      .default(60)
      .describe('t_s: a gap of at least this many minutes separates sessions (PersonaVLM §3).'),
    dayPeriods: z
      .object({
        morning: z.number().min(0).default(0.2).describe('Weight of sessions starting in the morning.'),
        midday: z.number().min(0).default(0.2).describe('Weight of sessions starting at midday.'),
        afternoon: z.number().min(0).default(0.15).describe('Weight of sessions starting in the afternoon.'),
        evening: z.number().min(0).default(0.3).describe('Weight of sessions starting in the evening.'),
        night: z.number().min(0).default(0.15).describe('Weight of sessions starting at night.'),
      })
      .strict()
      .prefault({})
      .describe('Weights of session start periods (local clock hours in `[start, end)` of each period).'),
    multimodal: z
      .object({
        enabled: z.boolean().default(true).describe('Plan rounds that show an image.'),
        ratio: Range(0.15, 0.2).describe('Share of multimodal rounds, drawn per user in `[min, max]`.'),
      })
      .strict()
      .prefault({})
      .describe('Multimodal rounds: ratio drawn per user in the range (PersonaVLM: > 15%).'),
    noise: z
      .object({
        ratio: z
          .number()
          .min(0)
          .max(0.6)
          .default(0.2)
          .describe('Share of rounds that are noise (VitaBench 2.0: about 20%).'),
        kinds: z
          .object({
            irrelevant: z.number().min(0).default(0.3).describe('Weight of off-topic requests.'),
            exploratory: z
              .number()
              .min(0)
              .default(0.25)
              .describe("Weight of exploratory requests (trying something outside the user's preferences)."),
            on_behalf: z.number().min(0).default(0.15).describe('Weight of requests made for someone else.'),
            impulse: z.number().min(0).default(0.15).describe('Weight of one-off impulse choices.'),
            correction: z
              .number()
              .min(0)
              .default(0.15)
              .describe('Weight of rounds where the user corrects themselves.'),
          })
          .strict()
          .prefault({})
          .describe('Weights of the noise kinds, normalised.'),
      })
      .strict()
      .prefault({})
      .describe("VitaBench's ≈20% noise interactions; kind weights.")
      .describe('Noise interactions (rounds that carry no preference signal) and the weight of each kind.'),
    preferences: z
      .object({
        initial: IntRange(8, 20).describe(
          'Initial preferences per user (VitaBench: 25–68, scaled down for month-long dialogues).',
        ),
        mix: z
          .object({
            food: z.number().min(0).default(0.35).describe('Weight of food preferences.'),
            shopping: z.number().min(0).default(0.181).describe('Weight of shopping preferences.'),
            travel: z.number().min(0).default(0.202).describe('Weight of travel preferences.'),
            entertainment: z.number().min(0).default(0.21).describe('Weight of entertainment preferences.'),
            lifestyle: z.number().min(0).default(0.025).describe('Weight of lifestyle preferences.'),
            longtail: z.number().min(0).default(0.025).describe('Weight of long-tail preferences.'),
          })
          .strict()
          .prefault({})
          .describe(
            'Category mix (VitaBench 2.0: food 35%, shopping 18.1%, travel 20.2%, entertainment 21%, long-tail 5%); lifestyle shares the long-tail 5% half and half. Normalised when drawn.',
          ),
        conditionalRatio: z
          .number()
          .min(0)
          .max(1)
          .default(0.15)
          .describe('Share of preferences that hold only in a context the assistant cannot see.'),
      })
      .strict()
      .prefault({})
      .describe('Preferences each user starts with, their category mix and conditional share.'),
    drift: z
      .object({
        perUserMeans: z
          .object({
            add: z
              .number()
              .min(0)
              .default(36.07)
              .describe('Mean preference additions per user (VitaBench 2.0: 36.07).'),
            delete: z
              .number()
              .min(0)
              .default(7.52)
              .describe('Mean preference deletions per user (VitaBench 2.0: 7.52).'),
            modify: z
              .number()
              .min(0)
              .default(4.79)
              .describe('Mean preference modifications per user (VitaBench 2.0: 4.79).'),
          })
          .strict()
          .prefault({})
          .describe('VitaBench 2.0 per-user averages over its reference lifecycle.'),
        referenceHorizonDays: z
          .number()
          .min(1)
          .default(1580)
          .describe("VitaBench 2.0's average interaction duration per user, days."),
        timeScale: z
          .number()
          .min(0)
          .default(4)
          .describe('Reference-days of life per planned day (see the note above).'),
        counts: z
          .enum(['horizon', 'lifecycle'])
          .default('horizon')
          .describe(
            '`lifecycle`: every user gets the per-user means whatever their horizon (VitaBench 2.0 reports 36.1 / 7.5 / 4.8 changes per user), spread over the planned months; `horizon`: means scaled to the horizon by `timeScale`.',
          ),
        implicitRatio: z
          .number()
          .min(0)
          .max(1)
          .default(0.3)
          .describe('Share of drift events that are implicit state changes.'),
      })
      .strict()
      .prefault({})
      .describe(
        'Preference drift: how many additions, deletions and modifications each user sees over the horizon.',
      ),
    personalityShiftsPer30Days: z
      .number()
      .min(0)
      .default(1)
      .describe('Mean Big Five shifts per 30 days (each moves one trait by ±1).'),
    people: z
      .object({
        count: IntRange(2, 5).describe('People per user, inclusive range.'),
        changesPer30Days: z
          .number()
          .min(0)
          .default(1.5)
          .describe('Mean changes about these people per 30 days.'),
      })
      .strict()
      .prefault({})
      .describe("People in the user's life: how many, and how often one changes per 30 days."),
    goals: z
      .object({
        count: IntRange(1, 3).describe('Goals per user, inclusive range.'),
        unknownRatio: z
          .number()
          .min(0)
          .max(1)
          .default(0.3)
          .describe('Share of goals the user never states (to be inferred).'),
      })
      .strict()
      .prefault({})
      .describe('Goals per user, and the share the assistant is never told.'),
    habits: z
      .object({
        count: IntRange(1, 3).describe('Habits per user, inclusive range.'),
        mentions: IntRange(1, 3).describe('Times each habit is mentioned, inclusive range.'),
      })
      .strict()
      .prefault({})
      .describe('Habits per user, and how often each is mentioned.'),
    concepts: z
      .object({
        count: IntRange(3, 4).describe('Concepts per group, inclusive range.'),
        imagesPerConcept: IntRange(2, 3).describe('Images per concept, inclusive range.'),
      })
      .strict()
      .prefault({})
      .describe('M²A concept group: 3–4 concepts, 2–3 images each.'),
    qa: QaConfig.prefault({}).describe(
      'Question targets per user: counts per family, task weights, when they are asked.',
    ),
    images: ImagesConfig.prefault({}).describe('The image pool that multimodal rounds draw from.'),
  })
  .strict();
export type PlanSettings = z.infer<typeof PlanSettings>;

type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends Record<string, unknown>
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** The `plan:` section as written in a pipeline file: any subset of `PlanSettings`. */
export type PlanConfig = DeepPartial<z.input<typeof PlanSettings>>;

function deepPartial(schema: z.ZodType, leaf: boolean): z.ZodType {
  // The field's description stays (it is what the JSON Schema shows), whichever wrapper holds it.
  let description = schema.description;
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault) {
    inner = inner.unwrap() as z.ZodType;
    description ??= inner.description;
  }
  const described = (out: z.ZodType) => (description === undefined ? out : out.describe(description));
  // Leaves lose their defaults too: a default applied while parsing the file would hide the preset.
  if (leaf || !(inner instanceof z.ZodObject)) return described(inner.optional());
  const shape: Record<string, z.ZodType> = {};
  for (const [key, value] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    // Records, tuples and the images section are replaced wholesale, not merged field by field.
    shape[key] = deepPartial(value, key === 'images');
  }
  return described(z.object(shape).strict().optional());
}

/**
 * The `plan:` section schema: every field optional (profile presets and defaults are applied by
 * `resolvePlanSettings`, so a preset never overrides what the file sets).
 *
 * @example PlanConfig.parse({ profile: 'm2a', qa: { locomo: 20 } });
 */
export const PlanConfig = (
  deepPartial(PlanSettings, false) as z.ZodOptional<z.ZodType>
).unwrap() as z.ZodType<PlanConfig, PlanConfig>;

/**
 * Published-system presets (SPEC.md §1–4). Only what differs from the generic defaults.
 * - personavlm: 32k/128k test contexts, images on, > 15% multimodal, all 14 Persona-MME tasks.
 * - persona-tree: text only, PersonaMem-style questions (Inside Out evaluates on PersonaMem), with
 *   PersonaMem's several preference updates per user and test dialogues long enough for its 32k
 *   contexts.
 * - m2a: 5–6 sessions of 5–15 rounds (≈ 25–90 rounds), 3–4 concepts × 2–3 images, LoCoMo mix 2:3:1:4.
 * - vitabench: 25–68 preferences, literal drift rates, ≈ 20% noise, text only, long horizons.
 */
export const PLAN_PROFILE_PRESETS: Record<PlanProfile, PlanConfig> = {
  generic: {},
  personavlm: { qa: { personaMme: 28, personaMem: 0, locomo: 0 } },
  'persona-tree': {
    multimodal: { enabled: false },
    // PersonaMem's histories update a persona's likes and dislikes at each later time frame (next
    // week, month, year), so a quarter of its questions can track a full preference evolution
    // and a sixth ask the reason of an update: every user gets several updates whatever the horizon.
    drift: { counts: 'lifecycle', perUserMeans: { add: 6, delete: 2, modify: 4 } },
    // Test users are evaluated PersonaMem-style: the real 32k questions see 24,846 tokens of
    // history on average. At the offline realizer's ~74 tokens per round, 380–440 rounds give
    // 28–33k-token dialogues, from which export windows each question to that length.
    contexts: {
      '32k': { rounds: [20, 100] },
      '128k': { rounds: [100, 500] },
      'personamem-32k': { rounds: [380, 440] },
    },
    testContexts: ['personamem-32k'],
    qa: { personaMme: 0, personaMem: 14, locomo: 0 },
  },
  m2a: {
    contexts: { m2a: { rounds: [25, 90] } },
    trainContexts: ['m2a'],
    testContexts: ['m2a'],
    horizonDays: { train: [7, 30], test: [7, 30] },
    qa: {
      personaMme: 0,
      personaMem: 0,
      locomo: 20,
      weights: { multi_hop: 2, temporal: 3, open_domain: 1, single_hop: 4, adversarial: 2 },
    },
  },
  vitabench: {
    multimodal: { enabled: false },
    preferences: { initial: [25, 68] },
    drift: { timeScale: 1, counts: 'lifecycle' },
    horizonDays: { train: [30, 90], test: [90, 365] },
    // Long test histories: its PersonaMem-style questions see 32k-file contexts (24,846 tokens on
    // average), which 100–500 rounds asked mid-history fell short of (16k).
    contexts: {
      '32k': { rounds: [20, 100] },
      '128k': { rounds: [100, 500] },
      'personamem-32k': { rounds: [380, 440] },
    },
    testContexts: ['personamem-32k'],
    qa: { personaMme: 7, personaMem: 7, locomo: 0 },
  },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value !== undefined) out[key] = merge(base[key], value);
  }
  return out;
}

const resolved = new WeakMap<object, PlanSettings>();
const resolvedByText = new Map<string, PlanSettings>();

/**
 * Applies generic defaults ← profile preset ← the file's `plan:` section. Cached per config object.
 *
 * @example resolvePlanSettings({ profile: 'personavlm' }).contexts['128k']?.rounds; // [100, 500]
 */
export function resolvePlanSettings(config: PlanConfig = {}): PlanSettings {
  const hit = resolved.get(config);
  if (hit !== undefined) return hit;
  // Equal configs in fresh objects (one per call) must not pay for a schema parse each time.
  const text = JSON.stringify(config);
  let settings = resolvedByText.get(text);
  if (settings === undefined) {
    const profile = config.profile ?? 'generic';
    settings = PlanSettings.parse(merge(PLAN_PROFILE_PRESETS[profile], config));
    if (resolvedByText.size > 256) resolvedByText.clear();
    resolvedByText.set(text, settings);
  }
  resolved.set(config, settings);
  return settings;
}
