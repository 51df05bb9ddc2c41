import { z } from 'zod';
import type { ChatMessage, LlmClient } from '../../llm/types.js';
import type { UserIndex } from '../types.js';
import { judgeSession, personaLines, SessionJudgement, sessionLines } from './llm-judge.js';
import type { SessionFacts } from './settled-facts.js';

/** What the judge model returns for several sessions of one user. */
export const SessionJudgements = z.object({
  sessions: z.array(SessionJudgement.extend({ session: z.number().int() })),
});
export type SessionJudgements = z.infer<typeof SessionJudgements>;

const SYSTEM = `You review several sessions of one user's synthetic conversations with an AI assistant, for a training corpus.
Score each session on its own, on four axes, and reply with JSON only: {"sessions": [{"session": n, ...}]} with one entry per session, n its number:
- "coherence" (0-1): every assistant reply follows from the user message before it; the conversation reads naturally.
- "safe" (true/false): false if any turn contains harmful, hateful, sexual, or private identifying content.
- "persona_consistency" (0-1): the user's messages fit the persona and personality described, with no contradiction of facts stated in the persona.
- "fact_expressed" (0-1): share of the session's listed planned facts that the user's messages actually state in recognisable words.
- "reason": one short sentence naming the worst problem, or "ok".`;

/** One session to judge: its index, the facts the judge reads, and the heuristic answer offline. */
export interface JudgeItem {
  session: number;
  facts: SessionFacts;
  offline: () => SessionJudgement;
}

/**
 * The packed judge prompt: the persona once (a stable prefix across a user's calls), then each
 * session under `### Session n` with the facts it is asked about and its numbered turns.
 *
 * @example renderJudgeBatchPrompt(index, items)[1].content.split('### Session ').length - 1 // items.length
 */
export function renderJudgeBatchPrompt(index: UserIndex, items: readonly JudgeItem[]): ChatMessage[] {
  const blocks = items.map((item) =>
    [`### Session ${item.session}`, ...sessionLines(index, item.session, item.facts.asked)].join('\n'),
  );
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: [personaLines(index), ...blocks].join('\n') },
  ];
}

/**
 * Judges a user's sessions `perCall` at a time (one call when they fit), as the reward judge
 * packs items: a packed call that fails, or an answer that leaves a session out, is retried one
 * session at a time with the single-session prompt, so one bad answer costs no other session.
 * Returns each session's judgement, null when no valid answer came (counted by the caller).
 *
 * @example const bySession = await judgeSessions(llm, index, items, 4);
 */
export async function judgeSessions(
  llm: LlmClient,
  index: UserIndex,
  items: readonly JudgeItem[],
  perCall: number,
  signal?: AbortSignal,
): Promise<Map<number, SessionJudgement | null>> {
  const out = new Map<number, SessionJudgement | null>();
  const alone = (item: JudgeItem) =>
    judgeSession(llm, index, item.session, item.offline, signal, item.facts.asked);
  for (let start = 0; start < items.length; start += perCall) {
    const pack = items.slice(start, start + perCall);
    if (pack.length === 1) {
      const [item] = pack as [JudgeItem];
      out.set(item.session, await alone(item));
      continue;
    }
    const result = await llm.safeStructured('judge', {
      messages: renderJudgeBatchPrompt(index, pack),
      schema: SessionJudgements,
      schemaName: 'session_judgements',
      temperature: 0,
      stage: 'validate',
      offline: () => ({ sessions: pack.map((item) => ({ ...item.offline(), session: item.session })) }),
      ...(signal === undefined ? {} : { signal }),
    });
    for (const item of pack) {
      const answer = result.ok
        ? result.value.sessions.find((entry) => entry.session === item.session)
        : undefined;
      if (answer === undefined) {
        out.set(item.session, await alone(item));
        continue;
      }
      const { session: _session, ...judgement } = answer;
      out.set(item.session, judgement);
    }
  }
  return out;
}
