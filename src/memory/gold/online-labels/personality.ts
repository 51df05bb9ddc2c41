/**
 * Personality-inference targets of model-written text come from a model: on the online path (the
 * dialogue was written by a realizer model) the offline trait-cue lists would read noise, so the
 * judge role (else the realizer's endpoint) reads the user's messages and grades each Big Five
 * trait 1–5 per message, or says there is not enough evidence (the target's 3, PersonaVLM §3.2).
 * The model never sees the hidden profile: only the messages. The prompt is versioned, so cached
 * answers and reports say which prompt they came from.
 */
import { z } from 'zod';
import { PersonaForgeError } from '../../../errors/index.js';
import { labelRole } from '../../../llm/label-role.js';
import type { LlmClient } from '../../../llm/types.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../../../schemas/common.js';
import type { UserDialogue } from '../../../schemas/dialogue.js';
import type { LabelledMessage, OnlinePersonalityOptions } from './types.js';

export const PERSONALITY_PROMPT_VERSION = 'personality-evidence/1';

const SYSTEM = [
  `[${PERSONALITY_PROMPT_VERSION}] You read a user's chat messages to their personal assistant and grade what each message shows about the user's Big Five personality.`,
  'For each MESSAGE grade every trait (openness, conscientiousness, extraversion, agreeableness, neuroticism) from 1 (very low) to 5 (very high) only when that message itself shows it, in its wording, tone or what the user says about themselves; answer null ("not enough evidence") for a trait the message does not show.',
  'Earlier messages are context only. Grade the user, not the people they mention. Quote the words you relied on (empty when every trait is null).',
  'Return JSON {"messages": [{"id": "M1", "openness": 1-5 | null, "conscientiousness": …, "extraversion": …, "agreeableness": …, "neuroticism": …, "quote": "..."}]} with one entry per message.',
].join('\n');

const Grade = z.number().int().min(1).max(5).nullable();

export const PersonalityGrades = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      openness: Grade,
      conscientiousness: Grade,
      extraversion: Grade,
      agreeableness: Grade,
      neuroticism: Grade,
      quote: z.string().nullish(),
    }),
  ),
});
export type PersonalityGrades = z.infer<typeof PersonalityGrades>;

/** User messages per call: a user's dialogue in a few calls, each prompt a few thousand tokens. */
const MESSAGES_PER_CALL = 40;

/** The messages of one call as its user prompt: `MESSAGE M1 (session 0, round 2): …`. */
export function personalityPrompt(messages: readonly LabelledMessage[]): string {
  return messages
    .map((m) => `MESSAGE ${m.id} (session ${m.session}, round ${m.round}): ${m.text.replace(/\s+/g, ' ')}`)
    .join('\n');
}

/**
 * The personality-inference target of every user turn of a model-written dialogue, by turn id,
 * from the model's grades (null → 3); null when the dialogue was written offline or no model
 * can read it (the offline reader stays as it is). One cached call per 40 user messages (whole
 * sessions together when they fit). A call that fails, or an answer that leaves a message out, is an error
 * naming the prompt and the message (the user is quarantined), never a default target.
 *
 * @example const targets = await onlinePersonalityTargets(llm, dialogue, { stage: 'memory' });
 */
export async function onlinePersonalityTargets(
  llm: LlmClient | null,
  dialogue: UserDialogue,
  options: OnlinePersonalityOptions,
): Promise<Map<string, BigFive> | null> {
  if (llm === null || dialogue.offline) return null;
  const role = labelRole(llm);
  if (role === null) return null;
  const out = new Map<string, BigFive>();
  for (const batch of batches(dialogue)) {
    const answer = await llm.structured<PersonalityGrades>(role, {
      schema: PersonalityGrades,
      schemaName: 'personality_evidence',
      stage: options.stage,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: personalityPrompt(batch) },
      ],
      // Answered only by `persona-forge estimate`'s recorder (it walks the model path without a
      // model); with a real endpoint the model answers, and with none this call is never made.
      offline: () => ({ messages: batch.map((m) => ({ id: m.id, ...NOT_SHOWN })) }),
    });
    const byId = new Map(answer.messages.map((m) => [m.id, m]));
    for (const message of batch) {
      const graded = byId.get(message.id);
      if (graded === undefined)
        throw new PersonaForgeError(
          'LLM_SCHEMA_MISMATCH',
          `user ${dialogue.userId}: ${PERSONALITY_PROMPT_VERSION} gave no grades for message ${message.id} (turn ${message.turnId})`,
          { hint: 'run the same command again to retry this user; check the judge endpoint' },
        );
      out.set(
        message.turnId,
        Object.fromEntries(BIG_FIVE_TRAITS.map((trait) => [trait, graded[trait] ?? 3])) as BigFive,
      );
    }
  }
  return out;
}

const NOT_SHOWN = {
  openness: null,
  conscientiousness: null,
  extraversion: null,
  agreeableness: null,
  neuroticism: null,
} as const;

/** The user messages in calls of at most MESSAGES_PER_CALL, whole sessions together when they fit. */
function batches(dialogue: UserDialogue): LabelledMessage[][] {
  const out: LabelledMessage[][] = [];
  let current: LabelledMessage[] = [];
  let n = 0;
  for (const session of dialogue.sessions) {
    const messages = session.turns
      .filter((turn) => turn.speaker === 'user')
      .map((turn) => ({
        id: '',
        turnId: turn.id,
        session: session.index,
        round: turn.round,
        text: turn.text,
      }));
    if (current.length > 0 && current.length + messages.length > MESSAGES_PER_CALL) {
      out.push(current);
      current = [];
    }
    for (const message of messages) {
      if (current.length === MESSAGES_PER_CALL) {
        out.push(current);
        current = [];
      }
      current.push({ ...message, id: `M${++n}` });
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}
