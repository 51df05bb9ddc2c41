import { z } from 'zod';

/** An inclusive integer range `[min, max]`. */
const IntRange = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([min, max]) => min <= max, { message: 'range must be [min, max] with min ≤ max' });

/**
 * The `synth:` section of a pipeline file. Every default here is a documented domain number
 * (SPEC.md §1 PersonaVLM realization, §3 M²A concept sessions, §4 VitaBench behavior logs).
 */
export const SynthConfig = z
  .object({
    /** Rounds (user message + assistant reply) realized per chunk / realizer call. @default 4 */
    chunkRounds: z.number().int().min(1).default(4),
    /** Most recent turns carried verbatim into a chunk prompt (compact state, never the whole history). @default 6 */
    recentTurns: z.number().int().min(0).default(6),
    /** Entries kept in the running session summary of a chunk prompt. @default 6 */
    summaryItems: z.number().int().min(0).default(6),
    /** Active preferences listed in a chunk prompt (those of the chunk's slots and topics first). @default 6 */
    promptPreferences: z.number().int().min(0).default(6),
    /**
     * Length of an assistant reply the realizer prompt asks for, in words (whole sentences up to
     * about this many). `estimate` sizes replies at it, since a model writes what it is asked, not
     * what the offline realizer writes. @default 40
     */
    replyWords: z.number().int().min(5).max(400).default(40),
    /** Regenerations of a chunk whose required slots were not expressed, before the user is quarantined. @default 2 */
    maxRegenerations: z.number().int().min(0).default(2),
    /**
     * Lexical check: a slot counts as expressed when all its keywords occur in its user turn; when at
     * least this fraction (but not all) occur, a `judge` call decides. @default 0.5
     */
    judgeWhenKeywordFraction: z.number().min(0).max(1).default(0.5),
    /** Sampling temperature of realizer calls. @default 0.8 */
    temperature: z.number().min(0).max(2).default(0.8),
    /** Assistant reply delay as a fraction of the session's round gap (keeps times strictly increasing). @default 0.25 */
    replyDelayFraction: z.number().min(0.01).max(0.9).default(0.25),
    behaviors: z
      .object({
        /** Emit VitaBench-style behavior logs. @default true */
        enabled: z.boolean().default(true),
        /** Mean behavior events between two consecutive sessions (Poisson). @default 3 */
        eventsPerGap: z.number().min(0).default(3),
        /** Fraction of behavior events that are noise (VitaBench 2.0: about 20%). @default 0.2 */
        noiseRate: z.number().min(0).max(1).default(0.2),
        /**
         * Probability that a noise round planned in a session also leaves a behavior event right
         * after it ("noise as planned"); mirrored events count toward `noiseRate`. @default 0.15
         */
        mirrorPlannedNoise: z.number().min(0).max(1).default(0.15),
        /** Price ranges per scenario in the user's currency, `[min, max]`. */
        priceRanges: z
          .object({
            delivery: z.tuple([z.number().min(0), z.number().min(0)]).default([12, 68]),
            instore: z.tuple([z.number().min(0), z.number().min(0)]).default([25, 180]),
            ota: z.tuple([z.number().min(0), z.number().min(0)]).default([180, 1400]),
            shopping: z.tuple([z.number().min(0), z.number().min(0)]).default([15, 400]),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    concepts: z
      .object({
        /** Concepts per group (M²A: 3–4). */
        groupSize: IntRange.default([3, 4]),
        /** Images per concept (M²A: 2–3). */
        imagesPerConcept: IntRange.default([2, 3]),
        /** Sessions generated in one call (M²A: 5–6). */
        sessions: IntRange.default([5, 6]),
        /** Turns per generated session (M²A: 5–15). */
        turnsPerSession: IntRange.default([5, 15]),
        /** QA items per generated conversation; a multiple of the mix total (M²A default 20). @default 20 */
        qaTotal: z.number().int().min(1).default(20),
        /** QA mix multi-hop : temporal : open-domain : single-hop (M²A: 2:3:1:4). */
        qaMix: z
          .object({
            multiHop: z.number().int().min(0).default(2),
            temporal: z.number().int().min(0).default(3),
            openDomain: z.number().int().min(0).default(1),
            singleHop: z.number().int().min(0).default(4),
          })
          .strict()
          .prefault({}),
        /** Generation attempts before the conversation is rejected (M²A: 5 retries). @default 5 */
        maxAttempts: z.number().int().min(1).default(5),
        /**
         * Photos shown per generated conversation, on average (M²A: 214 images over 10
         * conversations = 21.4): each image of the group once, then shown again in later turns.
         * A conversation shows ⌊x⌋ or ⌈x⌉ (seeded). @default 21.4
         */
        imagesPerConversation: z.number().min(0).default(21.4),
        /** Minutes between consecutive turns of a generated session. @default 2 */
        turnGapMinutes: z.number().min(0.1).default(2),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type SynthConfig = z.infer<typeof SynthConfig>;
export type SynthConfigInput = z.input<typeof SynthConfig>;
