import { z } from 'zod';
import { BigFive, IsoTime, SCHEMA_VERSION, Split } from './common.js';
import { EnrichedPersona } from './persona.js';

/** Preference categories (VitaBench 2.0's mix plus lifestyle). */
export const PreferenceCategory = z.enum([
  'food',
  'shopping',
  'travel',
  'entertainment',
  'lifestyle',
  'longtail',
]);
export type PreferenceCategory = z.infer<typeof PreferenceCategory>;

/**
 * One preference over an interval of validity. `slot` is the conflict key: two preferences
 * with the same slot are never active at the same time (a drift closes one and opens the next).
 */
export const Preference = z
  .object({
    id: z.string(),
    category: PreferenceCategory,
    slot: z.string(),
    /** The thing liked or disliked, e.g. "spicy Sichuan hotpot". */
    item: z.string(),
    polarity: z.enum(['like', 'dislike']),
    /** Words a realized turn must contain for this preference to count as expressed. */
    keywords: z.array(z.string()).min(1),
    validFrom: IsoTime,
    /** Exclusive end; null while still active at the horizon's end. */
    validUntil: IsoTime.nullable(),
    origin: z.enum(['initial', 'drift']),
    /** Present for conditional preferences that depend on context the assistant cannot see. */
    condition: z
      .object({ context: z.enum(['time', 'companion', 'situation']), when: z.string() })
      .strict()
      .nullable(),
  })
  .strict();
export type Preference = z.infer<typeof Preference>;

export const DriftEvent = z
  .object({
    id: z.string(),
    type: z.enum(['add', 'modify', 'delete']),
    time: IsoTime,
    /** The preference opened by add/modify; null for delete. */
    preferenceId: z.string().nullable(),
    /** The preference closed by modify/delete; null for add. */
    previousPreferenceId: z.string().nullable(),
    /** Life event or stated reason, which interest-evolution questions ask about. */
    cause: z.string(),
    visibility: z.enum(['explicit', 'implicit']),
  })
  .strict();
export type DriftEvent = z.infer<typeof DriftEvent>;

export const PersonalityPoint = z.object({ time: IsoTime, bigFive: BigFive, cause: z.string() }).strict();
export type PersonalityPoint = z.infer<typeof PersonalityPoint>;

export const Person = z
  .object({
    id: z.string(),
    name: z.string(),
    relation: z.string(),
    timeline: z.array(
      z
        .object({
          time: IsoTime,
          closeness: z.number().int().min(1).max(5),
          /** Contacts per month. */
          frequency: z.number().min(0),
          note: z.string(),
        })
        .strict(),
    ),
  })
  .strict();
export type Person = z.infer<typeof Person>;

export const GoalStatus = z.enum(['planned', 'in_progress', 'achieved', 'abandoned', 'unknown']);
export const Goal = z
  .object({
    id: z.string(),
    description: z.string(),
    keywords: z.array(z.string()).min(1),
    states: z.array(z.object({ time: IsoTime, status: GoalStatus, note: z.string() }).strict()),
  })
  .strict();
export type Goal = z.infer<typeof Goal>;

export const Habit = z
  .object({
    id: z.string(),
    description: z.string(),
    keywords: z.array(z.string()).min(1),
    /** 0 = Sunday … 6 = Saturday; null for daily habits. */
    dayOfWeek: z.number().int().min(0).max(6).nullable(),
    timeOfDay: z.enum(['morning', 'afternoon', 'evening', 'night']),
    validFrom: IsoTime,
    validUntil: IsoTime.nullable(),
  })
  .strict();
export type Habit = z.infer<typeof Habit>;

/** An image in a pool (built-in procedural scenes or a user directory), with checkable attributes. */
export const ImageRef = z
  .object({
    id: z.string(),
    /** Path relative to the image pool root. */
    path: z.string(),
    caption: z.string(),
    objects: z.array(
      z.object({ name: z.string(), color: z.string(), count: z.number().int().min(1) }).strict(),
    ),
  })
  .strict();
export type ImageRef = z.infer<typeof ImageRef>;

export const VisualConcept = z
  .object({
    id: z.string(),
    /** Display name, written `<Name>` in M²A-style first messages. */
    name: z.string(),
    kind: z.enum(['pet', 'object', 'person', 'place']),
    objectClass: z.string(),
    description: z.string(),
    imageIds: z.array(z.string()),
  })
  .strict();
export type VisualConcept = z.infer<typeof VisualConcept>;

export const EvidenceKind = z.enum([
  'preference',
  'drift',
  'habit',
  'relationship',
  'goal',
  'image',
  'fact',
  'personality',
  'noise',
]);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

/**
 * Where a planned fact must be expressed: by the user message of round `round` in session
 * `sessionIndex`. `keywords` are what a check looks for; `statement` is the fact in plain words.
 */
export const EvidenceSlot = z
  .object({
    id: z.string(),
    kind: EvidenceKind,
    /** Id of the preference / drift event / habit / person / goal / concept / image it expresses. */
    refId: z.string(),
    sessionIndex: z.number().int().min(0),
    round: z.number().int().min(0),
    time: IsoTime,
    statement: z.string(),
    keywords: z.array(z.string()).min(1),
    imageId: z.string().nullable(),
  })
  .strict();
export type EvidenceSlot = z.infer<typeof EvidenceSlot>;

/**
 * Noise kinds. `misstatement` is never drawn on its own: each `correction` plants one earlier in
 * its session (a request with one wrong practical detail), and the correction retracts that
 * detail only, never a planned fact.
 */
export const NoiseKind = z.enum([
  'irrelevant',
  'exploratory',
  'on_behalf',
  'impulse',
  'correction',
  'misstatement',
]);
export type NoiseKind = z.infer<typeof NoiseKind>;

/** A planned noise round; a `correction` names the round of the misstatement it corrects. */
export const NoiseRound = z
  .object({
    round: z.number().int().min(0),
    kind: NoiseKind,
    note: z.string(),
    /** Round (same session) of the misstatement a correction corrects. */
    corrects: z.number().int().min(0).optional(),
  })
  .strict();
export type NoiseRound = z.infer<typeof NoiseRound>;

/** A planned session. A "round" is one user message and the assistant's reply. */
export const SessionPlan = z
  .object({
    index: z.number().int().min(0),
    start: IsoTime,
    rounds: z.number().int().min(1),
    /** Minutes between consecutive rounds inside the session. */
    roundGapMinutes: z.number().min(0.1),
    topics: z.array(z.string()).min(1),
    noise: z.array(NoiseRound),
    /** Rounds whose user message carries an image (image id per round). */
    images: z.array(z.object({ round: z.number().int().min(0), imageId: z.string() }).strict()),
  })
  .strict();
export type SessionPlan = z.infer<typeof SessionPlan>;

export const QaFamily = z.enum(['persona-mme', 'personamem', 'locomo']);
export type QaFamily = z.infer<typeof QaFamily>;

export const QaTarget = z
  .object({
    id: z.string(),
    family: QaFamily,
    /** Task name within the family, e.g. `latest_preference_recognition`, `track_full_preference_evolution`, `temporal`. */
    task: z.string(),
    /** Persona-MME aspect (`type`), PersonaMem topic or LoCoMo category label. */
    group: z.string(),
    questionTime: IsoTime,
    question: z.string(),
    answer: z.string(),
    answerType: z.enum(['mc', 'open', 'binary']),
    /** Exactly four options for mc (the answer among them); two for binary. */
    choices: z.array(z.string()),
    /** Index of the answer in `choices`, or null for open questions. */
    correctIndex: z.number().int().min(0).nullable(),
    evidenceSlotIds: z.array(z.string()),
    /** Keywords a retrieval for this question should use. */
    retrievalKeywords: z.array(z.string()),
    /** True when the plan has no evidence and "unknown" is the correct answer. */
    unanswerable: z.boolean(),
    /** LoCoMo category number for the locomo family (1–5), else null. */
    locomoCategory: z.number().int().min(1).max(5).nullable(),
    /**
     * False when the question, asked without its options, has more than one true answer (a
     * suggestion, a photo among several of the concept): no open RL row is made of it.
     */
    openable: z.boolean().optional(),
    /**
     * Persona-MME's personality alignment, a property of a primary case (not a question of its
     * own): the trait the user is furthest from the middle on at question time, their level
     * (1-5), the reply style that suits it and the one that does not.
     */
    alignment: z
      .object({
        trait: z.string(),
        level: z.number().min(1).max(5),
        style: z.string(),
        /** The style that suits the other end of the trait (Persona-MME's rejected reply). */
        contrary: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type QaTarget = z.infer<typeof QaTarget>;

/** The ground truth for one user: every later stage realizes, checks and exports against it. */
export const UserPlan = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    userId: z.string(),
    split: Split,
    /** Persona profile family this plan reproduces (personavlm, persona-tree, m2a, vitabench, generic). */
    profile: z.string(),
    horizon: z.object({ start: IsoTime, end: IsoTime }).strict(),
    enriched: EnrichedPersona,
    preferences: z.array(Preference),
    drift: z.array(DriftEvent),
    personality: z.array(PersonalityPoint).min(1),
    people: z.array(Person),
    goals: z.array(Goal),
    habits: z.array(Habit),
    concepts: z.array(VisualConcept),
    images: z.array(ImageRef),
    sessions: z.array(SessionPlan).min(1),
    slots: z.array(EvidenceSlot),
    qa: z.array(QaTarget),
  })
  .strict();
export type UserPlan = z.infer<typeof UserPlan>;
