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

/**
 * The shortest and longest `context_length_in_tokens` of the real PersonaMem questions_32k.csv
 * (589 questions): a generated context stays within them.
 */
export const PERSONAMEM_32K_RANGE = { min: 15_560, max: 29_539 } as const;

/**
 * A question placed in its context: messages `[0]` (the persona) then the history ranges
 * `parts` (`[from, to)`, chronological, whole sessions; the last one ends where it is asked).
 */
export interface PlacedQuestion {
  qa: QaTarget;
  parts: Array<readonly [number, number]>;
  /** History index the question is asked before (the last part's end). */
  end: number;
  /** Index of the latest evidence message (`end` when it has none). */
  ref: number;
  tokens: number;
}

/** Why a question gets no PersonaMem context: the real file has none that short or that long. */
export interface LeftOutQuestion {
  qa: QaTarget;
  reason: 'history-too-short' | 'evidence-too-far';
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
 * Places each question in a context of the real file's length (`range`), closest to
 * `contextTokens`: the run of whole sessions ending where it is asked (`end` before the first
 * message at or after its time) and starting at or before its first evidence; when every such
 * run is longer than `range.max`, the sessions holding its evidence with a run of the latest
 * sessions up to the question, starting anywhere after the first evidence session (PersonaMem's
 * contexts are blocks put together, not one timeline). Nothing after the question is ever in its
 * context. A question whose whole history is shorter than `range.min` ('history-too-short'), or
 * whose evidence sessions with the question's own session exceed `range.max`
 * ('evidence-too-far'), is left out (`leftOut`), as the real file has no context of that length.
 *
 * @example placeQuestions(bundle, personaMemMessages(bundle), targets, 24_846).placed
 */
export function placeQuestions(
  bundle: EvalSource,
  messages: readonly PersonaMemMessage[],
  targets: readonly QaTarget[],
  contextTokens: number,
  range: { min: number; max: number } = PERSONAMEM_32K_RANGE,
): { placed: PlacedQuestion[]; leftOut: LeftOutQuestion[] } {
  const position = new Map<string, number>();
  messages.forEach((message, i) => {
    if (message.turnId !== null) position.set(message.turnId, i);
  });
  // Prefix sums of tokens; session starts (and the history's end) bound the blocks.
  const prefix = [0];
  for (const message of messages) prefix.push(prefix[prefix.length - 1]! + message.tokens);
  const starts: number[] = [];
  for (let i = 1; i < messages.length; i++)
    if (messages[i]!.session !== messages[i - 1]!.session) starts.push(i);
  const sum = (from: number, to: number) => prefix[to]! - prefix[from]!;
  /** The session block [from, to) holding message i. */
  const blockOf = (i: number): readonly [number, number] => {
    let from = 1;
    for (const start of starts) if (start <= i) from = start;
    const to = starts.find((start) => start > i) ?? messages.length;
    return [from, to];
  };
  const system = messages[0]?.tokens ?? 0;
  const inRange = (tokens: number) => tokens >= range.min && tokens <= range.max;
  const closer = (a: number, b: number) => Math.abs(a - contextTokens) < Math.abs(b - contextTokens);
  const placed: PlacedQuestion[] = [];
  const leftOut: LeftOutQuestion[] = [];
  for (const qa of targets) {
    const asked = Date.parse(qa.questionTime);
    let end = 1;
    while (end < messages.length && messages[end]!.time < asked) end++;
    const refs = evidenceTurns(bundle, qa).map((found) => position.get(found.turn.id) ?? end);
    const ref = refs.length === 0 ? end : Math.max(...refs);
    const first = refs.length === 0 ? end : Math.min(...refs);
    const whole = system + sum(1, end);
    if (whole < range.min) {
      leftOut.push({ qa, reason: 'history-too-short', tokens: whole });
      continue;
    }
    // Contiguous runs: the whole history, or from a session start at or before the first evidence.
    let best: { parts: Array<readonly [number, number]>; tokens: number } | null = null;
    for (const start of [1, ...starts.filter((s) => s <= first && s < end)]) {
      const tokens = system + sum(start, end);
      if (inRange(tokens) && (best === null || closer(tokens, best.tokens)))
        best = { parts: [[start, end]], tokens };
    }
    if (best === null) {
      // Evidence sessions, then a run of the latest sessions up to the question starting after the
      // first of them (any evidence session inside the run is part of it).
      const blocks = [
        ...new Map(refs.filter((r) => r < end).map((r) => [blockOf(r)[0], blockOf(r)])).values(),
      ]
        .map(([from, to]) => [from, Math.min(to, end)] as const)
        .sort((a, b) => a[0] - b[0]);
      const own = system + blocks.reduce((total, [from, to]) => total + sum(from, to), 0);
      const firstEvidence = blocks[0]?.[0] ?? 1;
      for (const start of starts.filter((s) => s > firstEvidence && s < end)) {
        const before = blocks.filter(([, to]) => to <= start);
        const tokens =
          system + before.reduce((total, [from, to]) => total + sum(from, to), 0) + sum(start, end);
        if (inRange(tokens) && (best === null || closer(tokens, best.tokens)))
          best = { parts: [...before, [start, end]], tokens };
      }
      if (best === null) {
        leftOut.push({ qa, reason: 'evidence-too-far', tokens: own });
        continue;
      }
    }
    placed.push({ qa, parts: best.parts, end, ref: Math.max(ref, best.parts[0]![0]), tokens: best.tokens });
  }
  return { placed, leftOut };
}
