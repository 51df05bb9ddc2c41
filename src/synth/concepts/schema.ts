import { z } from 'zod';

/** M²A QA categories for visual conversations (FORMATS.md §6): 6 multi-hop, 7 temporal, 8 open-domain, 9 single-hop. */
export const CONCEPT_QA_CATEGORY = { multiHop: 6, temporal: 7, openDomain: 8, singleHop: 9 } as const;

/** A concept of a group with the images the conversation may show. */
export const ConceptMember = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  objectClass: z.string(),
  description: z.string(),
  imageIds: z.array(z.string()).min(1),
});
export type ConceptMember = z.infer<typeof ConceptMember>;

export const ConceptTurn = z.object({
  /** 0 = the user, 1 = the assistant (M²A's speaker indices). */
  speaker: z.union([z.literal(0), z.literal(1)]),
  /** `S<session>:<turn>`, both 0-based. */
  dia_id: z.string(),
  /** Image ids from the group's images. */
  images: z.array(z.string()),
  text: z.string().min(1),
});
export type ConceptTurn = z.infer<typeof ConceptTurn>;

export const ConceptQa = z.object({
  question: z.string().min(1),
  answer: z.string().min(1),
  evidence: z.array(z.string()).min(1),
  category: z.union([z.literal(6), z.literal(7), z.literal(8), z.literal(9)]),
});
export type ConceptQa = z.infer<typeof ConceptQa>;

/** What one generation call returns (and the offline generator produces). */
export const ConceptGeneration = z.object({
  sessions: z.array(z.object({ date_time: z.string(), turns: z.array(ConceptTurn) })),
  qa: z.array(ConceptQa),
});
export type ConceptGeneration = z.infer<typeof ConceptGeneration>;

/** A validated concept conversation (M²A data construction, SPEC.md §3). */
export interface ConceptConversation extends ConceptGeneration {
  concepts: ConceptMember[];
  /** `offline` or the model name. */
  generator: string;
  offline: boolean;
  attempts: number;
}
