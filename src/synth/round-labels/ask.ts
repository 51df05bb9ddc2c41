import { PersonaForgeError } from '../../errors/index.js';
import type { WrittenRound } from './types.js';

/** Each round's user message once, as the label prompts show it. */
export function messagesOf(rounds: readonly WrittenRound[]): string[] {
  const seen = new Map<number, string>();
  for (const round of rounds) seen.set(round.round, round.user.replace(/\s+/g, ' '));
  return [...seen].map(([round, text]) => `ROUND ${round} USER MESSAGE: ${text}`);
}

/**
 * The answers by question id; an answer that leaves a question out is an error naming the prompt
 * and the question (the chunk's user is quarantined), never a default verdict.
 */
export function answersById<T extends { id: string }>(
  answers: readonly T[],
  ids: readonly string[],
  prompt: string,
): Map<string, T> {
  const byId = new Map(answers.map((a) => [a.id, a]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0)
    throw new PersonaForgeError('LLM_SCHEMA_MISMATCH', `${prompt} gave no answer for ${missing.join(', ')}`, {
      hint: 'run the same command again to retry this user; check the judge endpoint',
    });
  return byId;
}
