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
    chunkRounds: z
      .number()
      .int()
      .min(1)
      .default(4)
      .describe('Rounds (user message + assistant reply) realized per chunk / realizer call.'),
    recentTurns: z
      .number()
      .int()
      .min(0)
      .default(6)
      .describe(
        'Most recent turns carried verbatim into a chunk prompt (compact state, never the whole history).',
      ),
    summaryItems: z
      .number()
      .int()
      .min(0)
      .default(6)
      .describe('Entries kept in the running session summary of a chunk prompt.'),
    promptPreferences: z
      .number()
      .int()
      .min(0)
      .default(6)
      .describe("Active preferences listed in a chunk prompt (those of the chunk's slots and topics first)."),
    replyWords: z
      .number()
      .int()
      .min(5)
      .max(400)
      .default(40)
      .describe(
        'Length of an assistant reply the realizer prompt asks for, in words (whole sentences up to about this many); `estimate` sizes replies at it.',
      ),
    maxRegenerations: z
      .number()
      .int()
      .min(0)
      .default(2)
      .describe(
        'Regenerations of a chunk whose required slots were not expressed, before the user is quarantined.',
      ),
    judgeWhenKeywordFraction: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        'Lexical check: a slot counts as expressed when all its keywords occur in its user turn; when at least this fraction (but not all) occur, a `judge` call decides.',
      ),
    temperature: z.number().min(0).max(2).default(0.8).describe('Sampling temperature of realizer calls.'),
    replyDelayFraction: z
      .number()
      .min(0.01)
      .max(0.9)
      .default(0.25)
      .describe(
        "Assistant reply delay as a fraction of the session's round gap (keeps times strictly increasing).",
      ),
    behaviors: z
      .object({
        enabled: z.boolean().default(true).describe('Emit VitaBench-style behavior logs.'),
        eventsPerGap: z
          .number()
          .min(0)
          .default(3)
          .describe('Mean behavior events between two consecutive sessions (Poisson).'),
        noiseRate: z
          .number()
          .min(0)
          .max(1)
          .default(0.2)
          .describe('Fraction of behavior events that are noise (VitaBench 2.0: about 20%).'),
        mirrorPlannedNoise: z
          .number()
          .min(0)
          .max(1)
          .default(0.15)
          .describe(
            'Probability that a noise round planned in a session also leaves a behavior event right after it ("noise as planned"); mirrored events count toward `noiseRate`.',
          ),
        priceRanges: z
          .object({
            delivery: z
              .tuple([z.number().min(0), z.number().min(0)])
              .default([12, 68])
              .describe('Food delivery orders: `[min, max]` price.'),
            instore: z
              .tuple([z.number().min(0), z.number().min(0)])
              .default([25, 180])
              .describe('In-store dining: `[min, max]` price.'),
            ota: z
              .tuple([z.number().min(0), z.number().min(0)])
              .default([180, 1400])
              .describe('Online travel (hotels, tickets): `[min, max]` price.'),
            shopping: z
              .tuple([z.number().min(0), z.number().min(0)])
              .default([15, 400])
              .describe('Online shopping: `[min, max]` price.'),
          })
          .strict()
          .prefault({})
          .describe("Price ranges per scenario in the user's currency, `[min, max]`."),
      })
      .strict()
      .prefault({})
      .describe('VitaBench-style behavior logs (orders, visits, bookings) between sessions, with noise.'),
    concepts: z
      .object({
        groupSize: IntRange.default([3, 4]).describe('Concepts per group (M²A: 3–4).'),
        imagesPerConcept: IntRange.default([2, 3]).describe('Images per concept (M²A: 2–3).'),
        sessions: IntRange.default([5, 6]).describe('Sessions generated in one call (M²A: 5–6).'),
        turnsPerSession: IntRange.default([5, 15]).describe('Turns per generated session (M²A: 5–15).'),
        qaTotal: z
          .number()
          .int()
          .min(1)
          .default(20)
          .describe('QA items per generated conversation; a multiple of the mix total (M²A default 20).'),
        qaMix: z
          .object({
            multiHop: z
              .number()
              .int()
              .min(0)
              .default(2)
              .describe('Multi-hop questions per mix unit (M²A category 6; 2 of the 2:3:1:4 mix).'),
            temporal: z
              .number()
              .int()
              .min(0)
              .default(3)
              .describe('Temporal questions per mix unit (M²A category 7; 3 of the 2:3:1:4 mix).'),
            openDomain: z
              .number()
              .int()
              .min(0)
              .default(1)
              .describe('Open-domain questions per mix unit (M²A category 8; 1 of the 2:3:1:4 mix).'),
            singleHop: z
              .number()
              .int()
              .min(0)
              .default(4)
              .describe('Single-hop questions per mix unit (M²A category 9; 4 of the 2:3:1:4 mix).'),
          })
          .strict()
          .prefault({})
          .describe('QA mix multi-hop : temporal : open-domain : single-hop (M²A: 2:3:1:4).'),
        maxAttempts: z
          .number()
          .int()
          .min(1)
          .default(5)
          .describe('Generation attempts before the conversation is rejected (M²A: 5 retries).'),
        imagesPerConversation: z
          .number()
          .min(0)
          .default(21.4)
          .describe(
            'Photos shown per generated conversation, on average (M²A: 214 images over 10 conversations = 21.4): each image of the group once, then shown again in later turns. A conversation shows ⌊x⌋ or ⌈x⌉ (seeded).',
          ),
        turnGapMinutes: z
          .number()
          .min(0.1)
          .default(2)
          .describe('Minutes between consecutive turns of a generated session.'),
      })
      .strict()
      .prefault({})
      .describe('M²A concept sessions: groups of visual concepts, sessions per call and the QA mix.'),
  })
  .strict();
export type SynthConfig = z.infer<typeof SynthConfig>;
export type SynthConfigInput = z.input<typeof SynthConfig>;
