/**
 * PersonaMem-style contexts of the configured length, built from the user's own sessions the
 * way the real set builds its shared contexts from a persona's conversation blocks: each question
 * sees the persona message, then a run of whole sessions (blocks) ending where it is asked, long
 * enough to come as close as it can to `contextTokens` (the real questions_32k.csv's mean, 24,846
 * tokens) and never starting after the question's first evidence. Tokens are counted with
 * gpt-tokenizer (o200k), as `persona-forge eval` counts them. Export writes these contexts;
 * validate measures the same figure beside its target.
 */

import type { ExportConfig } from '../../schemas/export-config.js';
import type { QaTarget } from '../../schemas/plan.js';
import { countTokens } from '../../util/tokens.js';
import type { EvalSource } from './common.js';
import { evidenceTurns, stripImagePlaceholders } from './common.js';

/** Mean `context_length_in_tokens` of the real PersonaMem questions_32k.csv (589 questions; FORMATS.md §4). */
export const PERSONAMEM_32K_MEAN_TOKENS = 24_846;

/** One message of a user's PersonaMem history, with what placing questions needs. */
export interface PersonaMemMessage {
  role: string;
  content: string;
  /** Turn time (ms); −∞ for the persona message. */
  time: number;
  /** Session position in the dialogue; −1 for the persona message. */
  session: number;
  noise: boolean;
  turnId: string | null;
  tokens: number;
}

/** A question placed in its context: messages `[0] + [start, end)` of the user's history. */
export interface PlacedQuestion {
  qa: QaTarget;
  /** First history message of the window (a session's first message; 1 = the whole history). */
  start: number;
  /** History index the question is asked before (exclusive end). */
  end: number;
  /** Index of the latest evidence message (`end` when it has none). */
  ref: number;
  tokens: number;
}

/** The questions the PersonaMem format carries: multiple choice, of its family unless every format takes every family. */
export function personaMemTargets(bundle: EvalSource, config: ExportConfig): QaTarget[] {
  return bundle.plan.qa.filter(
    (qa) =>
      (config.eval.allFamiliesInEachFormat || qa.family === 'personamem') &&
      qa.answerType === 'mc' &&
      qa.correctIndex !== null,
  );
}

/** The persona message, then every turn as PersonaMem writes it (`User: …` / assistant text). */
export function personaMemMessages(bundle: EvalSource): PersonaMemMessage[] {
  const persona = bundle.plan.enriched.persona;
  const system = `Current user persona: Name: ${persona.name}. ${bundle.plan.enriched.roleDescription}`;
  const messages: PersonaMemMessage[] = [
    {
      role: 'system',
      content: system,
      time: Number.NEGATIVE_INFINITY,
      session: -1,
      noise: false,
      turnId: null,
      tokens: countTokens(system),
    },
  ];
  bundle.dialogue.sessions.forEach((session, s) => {
    for (const turn of session.turns) {
      const text = stripImagePlaceholders(turn.text);
      const content = turn.speaker === 'user' ? `User: ${text}` : text;
      messages.push({
        role: turn.speaker,
        content,
        time: Date.parse(turn.time),
        session: s,
        noise: turn.noise !== null,
        turnId: turn.id,
        tokens: countTokens(content),
      });
    }
  });
  return messages;
}

/**
 * Places each question: `end` before the first message at or after its time, `start` the
 * session start (at or before its first evidence) whose window is closest to `contextTokens`
 * (ties: the longer window). A history shorter than the target gives the whole history.
 *
 * @example placeQuestions(bundle, personaMemMessages(bundle), targets, 24_846)
 */
export function placeQuestions(
  bundle: EvalSource,
  messages: readonly PersonaMemMessage[],
  targets: readonly QaTarget[],
  contextTokens: number,
): PlacedQuestion[] {
  const position = new Map<string, number>();
  messages.forEach((message, i) => {
    if (message.turnId !== null) position.set(message.turnId, i);
  });
  // Prefix sums of tokens; session starts as candidate window starts.
  const prefix = [0];
  for (const message of messages) prefix.push(prefix[prefix.length - 1]! + message.tokens);
  const starts: number[] = [];
  for (let i = 1; i < messages.length; i++)
    if (messages[i]!.session !== messages[i - 1]!.session) starts.push(i);
  const system = messages[0]?.tokens ?? 0;
  return targets.map((qa) => {
    const asked = Date.parse(qa.questionTime);
    let end = 1;
    while (end < messages.length && messages[end]!.time < asked) end++;
    const refs = evidenceTurns(bundle, qa).map((found) => position.get(found.turn.id) ?? end);
    const ref = refs.length === 0 ? end : Math.max(...refs);
    const first = refs.length === 0 ? end : Math.min(...refs);
    let best = 1;
    let bestTokens = system + prefix[end]! - prefix[1]!;
    for (const start of starts) {
      if (start > first || start >= end) break;
      const tokens = system + prefix[end]! - prefix[start]!;
      if (Math.abs(tokens - contextTokens) < Math.abs(bestTokens - contextTokens)) {
        best = start;
        bestTokens = tokens;
      }
    }
    return { qa, start: best, end, ref: Math.max(ref, best), tokens: end <= 1 ? system : bestTokens };
  });
}
