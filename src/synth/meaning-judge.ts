/**
 * A model decides what the meaning reader cannot: every `unsure` and `contradicts` reading of a
 * chunk goes to one batched entailment call (role `judge`, else the realizer's endpoint), and
 * its verdict decides. The prompt is versioned: a change of wording is a new version, so cached
 * answers and reports say which prompt they came from.
 */
import { z } from 'zod';
import type { LlmClient } from '../llm/types.js';
import type { MeaningReading } from './meaning/types.js';

export const ENTAILMENT_PROMPT_VERSION = 'meaning-entailment/1';

const SYSTEM = [
  `[${ENTAILMENT_PROMPT_VERSION}] You check what a user's chat messages say about their preferences.`,
  'For each QUESTION, read the user message of its round and answer "yes" when the message says the claim (in any words), "opposite" when it says the contrary (the other stance, that it still holds when the claim says it ended, or the opposite condition), "no" when it does not say either.',
  "Only the user's own stance counts, not that of people they mention. Quote the words you relied on.",
  'Return JSON {"answers": [{"id": "...", "says": "yes" | "no" | "opposite", "quote": "..."}]} with one answer per question.',
].join('\n');

export const EntailmentAnswers = z.object({
  answers: z.array(
    z.object({ id: z.string(), says: z.enum(['yes', 'no', 'opposite']), quote: z.string().nullish() }),
  ),
});
export type EntailmentAnswers = z.infer<typeof EntailmentAnswers>;

/** One reading to decide: the claim in words, the round and its user message. */
export interface EntailmentQuestion {
  id: string;
  round: number;
  text: string;
  claim: string;
  reading: MeaningReading;
}

export type EntailmentVerdict = 'yes' | 'no' | 'opposite';

/** The chunk's questions as one prompt: each round's message once, then the questions. */
export function entailmentPrompt(questions: readonly EntailmentQuestion[]): string {
  const lines: string[] = [];
  const rounds = new Map<number, string>();
  for (const q of questions) rounds.set(q.round, q.text);
  for (const [round, text] of rounds) lines.push(`ROUND ${round} USER MESSAGE: ${text.replace(/\s+/g, ' ')}`);
  for (const q of questions)
    lines.push(`QUESTION ${q.id} (round ${q.round}): Does the message say that ${q.claim}?`);
  return lines.join('\n');
}

/**
 * Asks the model about every question of a chunk in one call and returns the verdict by id (a
 * question the answer leaves out counts as "no"). Offline there is no model: the reader's own
 * verdict stands (`contradicts` → opposite, `unsure` → null, counted by the caller).
 *
 * @example const verdicts = await judgeEntailment(llm, questions, { stage: 'synth' });
 */
export async function judgeEntailment(
  llm: LlmClient,
  questions: readonly EntailmentQuestion[],
  options: { stage: string },
): Promise<Map<string, { says: EntailmentVerdict | null; quote: string }>> {
  const role = llm.isOffline('judge') && !llm.isOffline('realizer') ? 'realizer' : 'judge';
  const out = new Map<string, { says: EntailmentVerdict | null; quote: string }>();
  if (questions.length === 0) return out;
  if (llm.isOffline(role)) {
    for (const q of questions)
      out.set(q.id, {
        says: q.reading.verdict === 'contradicts' ? 'opposite' : null,
        quote: q.reading.clause,
      });
    return out;
  }
  const answer = await llm.structured(role, {
    schema: EntailmentAnswers,
    schemaName: 'meaning_entailment',
    stage: options.stage,
    temperature: 0,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: entailmentPrompt(questions) },
    ],
  });
  const byId = new Map(answer.answers.map((a) => [a.id, a]));
  for (const q of questions) {
    const a = byId.get(q.id);
    out.set(q.id, { says: a?.says ?? 'no', quote: a?.quote ?? '' });
  }
  return out;
}
