import { z } from 'zod';
import { scoreTreeOps } from '../memory/index.js';
import { coverage, round2, tokenF1 } from './text.js';

/**
 * The judge prompts, versioned: the version is part of every cache key, so changing a prompt
 * never replays stale verdicts. Several items are packed into one call; the judge answers one
 * result per item id. Each kind also has an offline heuristic (labelled `offline-heuristic`).
 */
export const JUDGE_PROMPT_VERSION = 'pf-judge-v1';

export type JudgeKind = 'accuracy' | 'consistency' | 'tree_ops' | 'persona';

export interface JudgeKindSpec {
  /** Range the judge's number is clipped to. */
  range: [number, number];
  system: string;
  /** One item rendered for the batch prompt. */
  render(input: Record<string, string>): string;
  /** Schema of the whole batch answer, sent as the structured-output JSON Schema. */
  answer: z.ZodType<{ results: Array<{ id: number } & Record<string, unknown>> }>;
  /** One result's value, or null when the judge wrote something off-scale. */
  value(result: Record<string, unknown>): number | null;
  /** Offline heuristic over the same input. */
  offline(input: Record<string, string>, options: { f1Threshold: number }): number;
}

const common =
  'You are a strict, fair grader. You will see several numbered items. Grade each item independently. ' +
  'Answer with JSON only: {"results": [{"id": <item id>, ...}]} with exactly one result per item id.';

const labelAnswer = z.object({
  results: z.array(z.object({ id: z.coerce.number().int(), label: z.string() })),
});
const scoreAnswer = z.object({
  results: z.array(z.object({ id: z.coerce.number().int(), score: z.coerce.number() })),
});
/** CORRECT → 1, WRONG/INCORRECT → 0, anything else is not a verdict (parse_error, never a guess). */
const labelValue = (result: Record<string, unknown>) => {
  const label = String(result.label ?? '')
    .trim()
    .toUpperCase();
  return label === 'CORRECT' ? 1 : label === 'WRONG' || label === 'INCORRECT' ? 0 : null;
};
const scoreValue = (result: Record<string, unknown>) =>
  typeof result.score === 'number' && Number.isFinite(result.score) ? result.score : null;

export const JUDGE_KINDS: Record<JudgeKind, JudgeKindSpec> = {
  // Open-ended accuracy: binary CORRECT/WRONG, generous on wording and dates (SPEC.md §3, M²A judge).
  accuracy: {
    range: [0, 1],
    system:
      `${common}\nTask: decide whether the RESPONSE answers the QUESTION with the same meaning as the REFERENCE answer. ` +
      'Be generous: different wording, synonyms, extra correct detail, and any date or time format that denotes the same ' +
      'date (e.g. "May 7th" vs "7 May 2023", relative dates that resolve to it) all count as CORRECT. ' +
      'It is WRONG if it contradicts the reference, names a different entity, misses the point, or only hedges. ' +
      'Each result: {"id": <id>, "label": "CORRECT" | "WRONG"}.',
    render: (input) =>
      `QUESTION: ${input.question}\nREFERENCE: ${input.reference}\nRESPONSE: ${input.answer}`,
    answer: labelAnswer,
    value: labelValue,
    offline: (input, options) =>
      tokenF1(input.answer ?? '', input.reference ?? '') >= options.f1Threshold ? 1 : 0,
  },
  // PersonaVLM's consistency reward: does the answer follow from the reasoning and memory (SPEC.md §1).
  consistency: {
    range: [0, 1],
    system:
      `${common}\nTask: judge whether the ANSWER follows from the REASONING and the RETRIEVED MEMORY shown ` +
      '(not whether it is true in the world). 1.0 = the answer is exactly what the reasoning concludes and uses the memory ' +
      'faithfully; 0.5 = loosely related or partly supported; 0.0 = contradicts or ignores the reasoning/memory, or invents ' +
      'facts absent from both. Each result: {"id": <id>, "score": <number in [0,1], two decimals>}.',
    render: (input) =>
      `QUESTION: ${input.question}\nREASONING: ${input.reasoning}\nRETRIEVED MEMORY: ${input.memory || '(none)'}\nANSWER: ${input.answer}`,
    answer: scoreAnswer,
    value: scoreValue,
    offline: (input) => round2(coverage(input.answer ?? '', `${input.reasoning}\n${input.memory}`)),
  },
  // PersonaTree operation judge with the paper's anchors (SPEC.md §2).
  tree_ops: {
    range: [-1, 1],
    system:
      `${common}\nTask: compare predicted PersonaTree operations (PRED_OPS) against the ground truth (GT_OPS). Operations are ` +
      'ADD(path, "value"), UPDATE(path, "value"), DELETE(path, None), NO_OP(), one per line. Consider operation type, path, ' +
      'semantic equivalence of values, missing and extra operations. Give a continuous score in [-1, 1] with two decimals, ' +
      'interpolating between anchors: 1.0 near-perfect (types and paths match, values equivalent, no extra ops); 0.7 high ' +
      'quality; 0.5 usable, core direction right; 0.3 about half right; 0.0 only slightly right; -0.3 barely relevant; ' +
      '-0.5 off target; -0.7 catastrophic (wrong types or paths, harmful deletions); -1.0 meaningless. ' +
      'Each result: {"id": <id>, "score": <number>}.',
    render: (input) => `GT_OPS:\n${input.gt_ops}\nPRED_OPS:\n${input.pred_ops}`,
    answer: scoreAnswer,
    value: scoreValue,
    offline: (input) => round2(scoreTreeOps(input.pred_ops ?? '', input.gt_ops ?? '').score),
  },
  persona: {
    range: [0, 1],
    system:
      `${common}\nTask: judge whether the ANSWER fits this user: their PROFILE (facts, preferences, interests) and ` +
      'PERSONALITY (Big Five), and their requested interaction style. 1.0 = clearly personalised and consistent with the ' +
      'profile; 0.5 = generic but not contradicting it; 0.0 = contradicts the profile or personality (e.g. recommends what ' +
      'the user dislikes). Each result: {"id": <id>, "score": <number in [0,1], two decimals>}.',
    render: (input) => `PROFILE: ${input.profile}\nQUESTION: ${input.question}\nANSWER: ${input.answer}`,
    answer: scoreAnswer,
    value: scoreValue,
    offline: (input) => round2(Math.min(1, 0.5 + coverage(input.answer ?? '', input.profile ?? ''))),
  },
};

/** The user message of one batch call. */
export function renderBatch(kind: JudgeKind, inputs: Array<Record<string, string>>): string {
  const spec = JUDGE_KINDS[kind];
  return inputs.map((input, id) => `### Item ${id}\n${spec.render(input)}`).join('\n\n');
}
