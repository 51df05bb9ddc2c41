import { z } from 'zod';
import { IsoTime, SCHEMA_VERSION } from './common.js';

/** One message. Round r of a session holds the user turn then the assistant turn. */
export const Turn = z
  .object({
    /** Stable id `<userId>:S<session>:T<turn>` (both 0-based). */
    id: z.string(),
    index: z.number().int().min(0),
    round: z.number().int().min(0),
    time: IsoTime,
    speaker: z.enum(['user', 'assistant']),
    text: z.string().min(1),
    /** Image ids (from the plan's pool); the text carries one `<image>` placeholder per image. */
    images: z.array(z.string()),
    /** Evidence slot ids this turn expresses. */
    slots: z.array(z.string()),
    /** Noise kind when the round is a planned noise interaction. */
    noise: z.string().nullable(),
  })
  .strict();
export type Turn = z.infer<typeof Turn>;

export const DialogueSession = z
  .object({
    index: z.number().int().min(0),
    start: IsoTime,
    end: IsoTime,
    topics: z.array(z.string()),
    turns: z.array(Turn).min(2),
  })
  .strict();
export type DialogueSession = z.infer<typeof DialogueSession>;

/** VitaBench-style behavior event. */
export const BehaviorEvent = z
  .object({
    id: z.string(),
    time: IsoTime,
    type: z.enum(['browse', 'search', 'compare', 'consult', 'order', 'review', 'cancel', 'favorite']),
    scenario: z.enum(['delivery', 'instore', 'ota', 'shopping']),
    merchant: z.string().nullable(),
    items: z.array(
      z.object({ name: z.string(), price: z.number().min(0), quantity: z.number().int().min(1) }).strict(),
    ),
    keyword: z.string().nullable(),
    tags: z.array(z.string()),
    rating: z.number().int().min(1).max(5).nullable(),
    text: z.string().nullable(),
    /** Preference this event reflects, when any. */
    preferenceId: z.string().nullable(),
    noise: z.string().nullable(),
  })
  .strict();
export type BehaviorEvent = z.infer<typeof BehaviorEvent>;

/** The realized conversation and behavior log of one user. */
export const UserDialogue = z
  .object({
    schemaVersion: z.literal(SCHEMA_VERSION),
    userId: z.string(),
    /** `offline` when produced by the offline realizer, else the realizer model name. */
    realizer: z.string(),
    offline: z.boolean(),
    sessions: z.array(DialogueSession).min(1),
    behaviors: z.array(BehaviorEvent),
  })
  .strict();
export type UserDialogue = z.infer<typeof UserDialogue>;
