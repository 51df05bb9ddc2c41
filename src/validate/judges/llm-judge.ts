import { z } from 'zod';
import type { ChatMessage, LlmClient } from '../../llm/types.js';
import { spokenStatement } from '../../plan/image-slots.js';
import type { JudgeCheckName } from '../../schemas/validate-config.js';
import type { UserIndex } from '../types.js';

/** What the judge model returns for one session (lenient: only the fields read). */
export const SessionJudgement = z.object({
  coherence: z.number().min(0).max(1),
  safe: z.boolean(),
  persona_consistency: z.number().min(0).max(1),
  fact_expressed: z.number().min(0).max(1),
  reason: z.string().nullish(),
});
export type SessionJudgement = z.infer<typeof SessionJudgement>;

const SYSTEM = `You review synthetic conversations between a user and an AI assistant for a training corpus.
Score the session on four axes and reply with JSON only:
- "coherence" (0-1): every assistant reply follows from the user message before it; the conversation reads naturally.
- "safe" (true/false): false if any turn contains harmful, hateful, sexual, or private identifying content.
- "persona_consistency" (0-1): the user's messages fit the persona and personality described, with no contradiction of facts stated in the persona.
- "fact_expressed" (0-1): share of the listed planned facts that the user's messages actually state in recognisable words.
- "reason": one short sentence naming the worst problem, or "ok".`;

/**
 * Renders the judge prompt for one session: persona, Big Five, the planned facts of the
 * session, then the numbered turns.
 *
 * @example renderJudgePrompt(index, 0)[1].content.startsWith('Persona:')
 */
export function renderJudgePrompt(
  index: UserIndex,
  sessionIndex: number,
  facts: readonly FactSlot[] = index.bundle.plan.slots.filter((slot) => slot.sessionIndex === sessionIndex),
): ChatMessage[] {
  const user = [personaLines(index), ...sessionLines(index, sessionIndex, facts)].join('\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

type FactSlot = UserIndex['bundle']['plan']['slots'][number];

/** Persona and Big Five: the same for every judge call of a user, so they lead the prompt. */
export function personaLines(index: UserIndex): string {
  const { plan } = index.bundle;
  const persona = plan.enriched.persona;
  const traits = Object.entries(plan.enriched.bigFive)
    .map(([trait, value]) => `${trait} ${value}`)
    .join(', ');
  return [
    `Persona: ${persona.name}, ${persona.age}, ${persona.occupation}. ${persona.description}`,
    `Big Five (1-5): ${traits}`,
  ].join('\n');
}

/** One session as the judge reads it: the facts it is asked about, then the numbered turns. */
export function sessionLines(index: UserIndex, sessionIndex: number, facts: readonly FactSlot[]): string[] {
  const turns = (index.bundle.dialogue.sessions[sessionIndex]?.turns ?? []).map(
    (turn) => `[${turn.index}] ${turn.speaker}: ${turn.text}`,
  );
  const listed = facts.map((slot) => `- ${spokenStatement(slot)}`);
  return [
    'Planned facts for this session:',
    ...(listed.length === 0 ? ['- (none)'] : listed),
    'Session:',
    ...turns,
  ];
}

/**
 * Asks the `judge` role about one session. `offline` supplies the heuristic answer, so the same
 * call works with no endpoint. Returns null when the model gave no valid answer (counted, not thrown).
 *
 * @example await judgeSession(llm, index, 0, () => ({ coherence: 1, safe: true, persona_consistency: 1, fact_expressed: 1 }))
 */
export async function judgeSession(
  llm: LlmClient,
  index: UserIndex,
  sessionIndex: number,
  offline: () => SessionJudgement,
  signal?: AbortSignal,
  facts?: readonly FactSlot[],
): Promise<SessionJudgement | null> {
  const result = await llm.safeStructured('judge', {
    messages: renderJudgePrompt(index, sessionIndex, facts),
    schema: SessionJudgement,
    schemaName: 'session_judgement',
    temperature: 0,
    stage: 'validate',
    offline,
    ...(signal === undefined ? {} : { signal }),
  });
  return result.ok ? result.value : null;
}

/** Maps a session judgement to a 0–1 score per check. */
export function judgementScore(judgement: SessionJudgement, check: JudgeCheckName): number {
  if (check === 'safety') return judgement.safe ? 1 : 0;
  return judgement[check];
}
