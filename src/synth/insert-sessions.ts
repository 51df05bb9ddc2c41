import { z } from 'zod';
import { InputError } from '../errors/index.js';
import {
  type DialogueSession,
  DialogueSession as DialogueSessionSchema,
  UserDialogue,
} from '../schemas/dialogue.js';
import { type ImageRef, UserPlan } from '../schemas/plan.js';
import { SynthConfig, type SynthConfigInput } from '../schemas/synth-config.js';
import { ConceptGeneration, ConceptMember } from './concepts/schema.js';
import { conceptConversationToSessions } from './concepts/to-sessions.js';
import { createOfflineRealizer } from './offline/realizer.js';
import { realizeDialogue } from './realize-dialogue.js';

/** Sessions ready for `interpolateIntoHost` (structurally its `InsertSessions`). */
export interface SessionsForInsertion {
  sessions: DialogueSession[];
  /** The generated user's name (from a plan), rewritten as the host speaker they become. */
  userName?: string;
  images: ImageRef[];
  qa?: Array<{ question: string; answer: string; evidence: string[]; category: number }>;
}

export interface SessionsFromPlanOptions {
  seed: number;
  /** Use only the first `count` sessions. @default all */
  count?: number;
  config?: SynthConfigInput;
}

const InsertShape = z.object({
  sessions: z.array(DialogueSessionSchema).min(1),
  images: z.array(z.any()).optional(),
  qa: z
    .array(
      z.object({
        question: z.string(),
        answer: z.string(),
        evidence: z.array(z.string()),
        category: z.number(),
      }),
    )
    .optional(),
});
const ConceptShape = ConceptGeneration.extend({ concepts: z.array(ConceptMember) });

/**
 * The plan's questions that the inserted sessions answer, in LoCoMo's terms: evidence is the ids
 * of the user turns stating each evidence slot (all inside `sessions`), the category LoCoMo's
 * (the plan's own for LoCoMo questions; else temporal 2, multi-hop 1 or single-hop 4 by shape).
 * Questions by design unanswerable, or resting on turns outside the inserted sessions, are left out.
 */
export function planQaFor(
  plan: UserPlan,
  sessions: readonly DialogueSession[],
): NonNullable<SessionsForInsertion['qa']> {
  const turnBySlot = new Map<string, string>();
  for (const session of sessions)
    for (const turn of session.turns)
      if (turn.speaker === 'user')
        for (const slot of turn.slots) if (!turnBySlot.has(slot)) turnBySlot.set(slot, turn.id);
  const seen = new Set<string>();
  const out: NonNullable<SessionsForInsertion['qa']> = [];
  for (const qa of plan.qa) {
    if (qa.unanswerable || qa.evidenceSlotIds.length === 0) continue;
    const evidence = qa.evidenceSlotIds.map((id) => turnBySlot.get(id));
    if (evidence.some((id) => id === undefined)) continue;
    // LoCoMo questions are open-ended: ask without the in-situ lead-in and options.
    const key = qa.question.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const category = qa.locomoCategory ?? (qa.task === 'temporal' ? 2 : new Set(evidence).size > 1 ? 1 : 4);
    out.push({
      question: qa.question,
      answer: qa.answer,
      evidence: [...new Set(evidence as string[])],
      category,
    });
  }
  return out;
}

/**
 * Turns what `persona-forge interpolate --sessions <file-or-plan>` points at into sessions to
 * splice: a `UserPlan` (realized offline with `seed`), a `UserDialogue`, an M²A concept
 * conversation (`generateConceptConversation` output; its QA comes along), or an object with
 * `sessions` (native `DialogueSession`s) and optional `qa`/`images`. A JSON array (e.g. a parsed
 * jsonl) uses its first record. Anything else is an `InputError` naming the accepted shapes.
 *
 * @example const insert = await sessionsForInsertion(JSON.parse(text), { seed: 42, count: 5 });
 */
export async function sessionsForInsertion(
  source: unknown,
  options: SessionsFromPlanOptions,
): Promise<SessionsForInsertion> {
  const value = Array.isArray(source) ? source[0] : source;
  const take = <T>(items: T[]): T[] => (options.count === undefined ? items : items.slice(0, options.count));
  const plan = UserPlan.safeParse(value);
  if (plan.success) {
    const dialogue = await realizeDialogue(plan.data, {
      realizer: createOfflineRealizer({ seed: options.seed }),
      seed: options.seed,
      config: { ...options.config, behaviors: { enabled: false } },
    });
    const sessions = take(dialogue.sessions);
    return {
      sessions,
      userName: plan.data.enriched.persona.name,
      images: plan.data.images,
      qa: planQaFor(plan.data, sessions),
    };
  }
  const dialogue = UserDialogue.safeParse(value);
  if (dialogue.success) return { sessions: take(dialogue.data.sessions), images: [] };
  const concept = ConceptShape.safeParse(value);
  if (concept.success) {
    const gap = SynthConfig.parse(options.config ?? {}).concepts.turnGapMinutes;
    const converted = conceptConversationToSessions(
      { ...concept.data, generator: 'file', offline: false, attempts: 1 },
      { userId: 'concepts', turnGapMinutes: gap },
    );
    const sessions = take(converted.sessions);
    const kept = new Set(sessions.flatMap((s) => s.turns.map((t) => t.id)));
    return {
      sessions,
      images: [],
      qa: converted.qa.filter((item) => item.evidence.every((id) => kept.has(id))),
    };
  }
  const plain = InsertShape.safeParse(value);
  if (plain.success) {
    return {
      sessions: take(plain.data.sessions),
      images: (plain.data.images ?? []) as ImageRef[],
      ...(plain.data.qa === undefined ? {} : { qa: plain.data.qa }),
    };
  }
  throw new InputError(
    '--sessions',
    'expected a UserPlan, a UserDialogue, a concept conversation or {sessions: DialogueSession[]}',
    {
      hint: 'pass a plan record (plan/plan.jsonl line), a dialogue record (dialogues/dialogues.jsonl line) or a generated concept conversation',
    },
  );
}

/**
 * One `SessionsForInsertion` per record of what `--sessions` points at (a jsonl, a run
 * directory's plan.jsonl, a JSON array), the first `limit` of them; a single document gives one.
 * Each record is read as `sessionsForInsertion` reads it.
 *
 * @example const users = await sessionsForEachUser(plans, { seed: 42 }, 10); // one per host conversation
 */
export async function sessionsForEachUser(
  source: unknown,
  options: SessionsFromPlanOptions,
  limit = Number.POSITIVE_INFINITY,
): Promise<SessionsForInsertion[]> {
  const records = Array.isArray(source) ? source.slice(0, limit) : [source];
  const out: SessionsForInsertion[] = [];
  for (const record of records) out.push(await sessionsForInsertion(record, options));
  return out;
}
