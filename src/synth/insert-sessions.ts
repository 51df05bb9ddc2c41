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
import { locomoAsk } from './locomo-questions.js';
import { createOfflineRealizer } from './offline/realizer.js';
import { realizeDialogue } from './realize-dialogue.js';

/** Sessions ready for `interpolateIntoHost` (structurally its `InsertSessions`). */
export interface SessionsForInsertion {
  sessions: DialogueSession[];
  /** The generated user's name (from a plan), rewritten as the host speaker they become. */
  userName?: string;
  images: ImageRef[];
  qa?: Array<{
    question: string;
    answer: string;
    evidence: string[];
    category: number;
    kind?: 'temporal' | 'inference' | 'recall' | 'combine';
  }>;
  /**
   * The generated person's own biography (occupation, city, education, family): said under a
   * host speaker's name it would contradict the host person's, so it is kept out of the sessions
   * and the host adapter checks that no inserted turn says it.
   */
  userFacts?: string[];
}

export interface SessionsFromPlanOptions {
  seed: number;
  /** Use only the first `count` sessions. @default all */
  count?: number;
  /**
   * Leave out the rounds in which the generated user states their own biography (plan `fact`
   * slots: occupation, home, education, family), for hosts whose speaker already has one (LoCoMo).
   * @default false
   */
  withoutIdentity?: boolean;
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

/** Questions whose answer cannot change after they are asked (a photo, a name, a date, a past reason). */
const TIMELESS = new Set([
  'visual_detail_recall',
  'semantic_information_recall',
  'relationship_recognition',
  'behavioral_pattern_recognition',
  'recalling_the_reasons_behind_previous_updates',
  'temporal',
]);

/**
 * The plan's questions that the inserted sessions answer, asked as LoCoMo asks (`locomoAsk`:
 * third person with placeholders for the host speaker, open-ended, no situation line): evidence
 * is the ids of the user turns stating each evidence slot (all inside `sessions`), `kind` what
 * it asks (the host adapter sets LoCoMo's category from it and the evidence). Left out: questions
 * LoCoMo has no phrasing for, questions needing their options, questions resting on turns
 * outside the sessions, and questions about a state that may change after them (a current
 * preference, a goal's status) asked before the last inserted session ends — LoCoMo asks after
 * the whole conversation.
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
  const lastTurn = sessions.at(-1)?.turns.at(-1)?.time ?? '';
  const seen = new Set<string>();
  const out: NonNullable<SessionsForInsertion['qa']> = [];
  for (const qa of plan.qa) {
    if (qa.unanswerable || qa.evidenceSlotIds.length === 0) continue;
    const evidence = qa.evidenceSlotIds.map((id) => turnBySlot.get(id));
    if (evidence.some((id) => id === undefined)) continue;
    if (!TIMELESS.has(qa.task) && Date.parse(qa.questionTime) < Date.parse(lastTurn)) continue;
    const asked = locomoAsk(qa);
    if (asked === null) continue;
    const key = asked.question.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    // One turn answers a recall question: the latest one stating it (the plan lists it last).
    const ids = [...new Set(evidence as string[])];
    out.push({
      question: asked.question,
      answer: asked.answer,
      evidence: asked.kind === 'recall' ? ids.slice(-1) : ids,
      // Set by the host adapter from `kind` and where the evidence lies.
      category: asked.kind === 'temporal' ? 2 : asked.kind === 'inference' ? 3 : 4,
      kind: asked.kind,
    });
  }
  return out;
}

/** Drops the rounds (user turn and the reply to it) stating the user's biography (`fact` slots). */
function withoutIdentityRounds(plan: UserPlan, sessions: DialogueSession[]): DialogueSession[] {
  const facts = new Set(plan.slots.filter((slot) => slot.kind === 'fact').map((slot) => slot.id));
  return sessions
    .map((session) => {
      const turns = session.turns.filter((turn, t) => {
        const asked = turn.speaker === 'user' ? turn : session.turns[t - 1];
        return !(asked?.speaker === 'user' && asked.slots.some((id) => facts.has(id)));
      });
      return { ...session, turns };
    })
    .filter((session) => session.turns.length > 0);
}

/** The biography values of the generated person that no host speaker may say as their own. */
function biography(plan: UserPlan): string[] {
  const persona = plan.enriched.persona;
  return [persona.occupation, persona.location.city, persona.education, persona.family].filter(
    (value): value is string => typeof value === 'string' && value.trim().length > 2,
  );
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
    const taken = take(dialogue.sessions);
    const sessions = options.withoutIdentity === true ? withoutIdentityRounds(plan.data, taken) : taken;
    return {
      sessions,
      userName: plan.data.enriched.persona.name,
      images: plan.data.images,
      qa: planQaFor(plan.data, sessions),
      ...(options.withoutIdentity === true ? { userFacts: biography(plan.data) } : {}),
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
