import type { JudgeKind } from '../../../reward/judge-kinds.js';
import type { FakeChatRequest } from '../server.js';
import { conceptAnswer } from './concepts.js';
import { entailmentAnswer } from './entailment.js';
import { rewardJudgeAnswer, sessionAnswer, sessionsAnswer, slotAnswer } from './judges.js';
import { correctionAnswer, personalityAnswer, photoAnswer } from './labels.js';
import { enrichmentAnswer, teacherAnswer } from './memory.js';
import { realizerAnswer } from './realizer.js';
import { systemContent } from './text.js';

/** A responder answers one kind of prompt, or returns undefined for "not mine". */
export type Responder = (request: FakeChatRequest) => unknown;

const BY_SCHEMA: Record<string, Responder> = {
  dialogue_chunk: realizerAnswer,
  concept_sessions: conceptAnswer,
  slot_expressed: slotAnswer,
  meaning_entailment: entailmentAnswer,
  personality_evidence: personalityAnswer,
  photo_description: photoAnswer,
  correction_check: correctionAnswer,
  session_judgement: sessionAnswer,
  session_judgements: sessionsAnswer,
  persona_enrichment: enrichmentAnswer,
  semantic_write: (r) => teacherAnswer('semantic_write', r),
  personality_inference: (r) => teacherAnswer('personality_inference', r),
  tree_ops: (r) => teacherAnswer('tree_ops', r),
  core_update: (r) => teacherAnswer('core_update', r),
  episodic_summary: (r) => teacherAnswer('episodic_summary', r),
  procedural_update: (r) => teacherAnswer('procedural_update', r),
  memory_session: (r) => teacherAnswer('memory_session', r),
  judge_accuracy: (r) => rewardJudgeAnswer('accuracy', r),
  judge_consistency: (r) => rewardJudgeAnswer('consistency', r),
  judge_tree_ops: (r) => rewardJudgeAnswer('tree_ops' as JudgeKind, r),
  judge_persona: (r) => rewardJudgeAnswer('persona', r),
};

/** When structured output falls back to `json_object` or plain instructions, the name is not sent. */
const BY_SYSTEM_PROMPT: Array<[RegExp, string]> = [
  // First: a session prompt quotes the per-task instructions.
  [/You supervise the memory of a user's long-term personal assistant/, 'memory_session'],
  [/realistic chat logs between a user and their long-term personal assistant/, 'dialogue_chunk'],
  [/realistic multimodal conversations about a user's personal concepts/, 'concept_sessions'],
  [/Answer whether the user message clearly states the given fact/, 'slot_expressed'],
  [/meaning-entailment\//, 'meaning_entailment'],
  [/personality-evidence\//, 'personality_evidence'],
  [/photo-description\//, 'photo_description'],
  [/correction-check\//, 'correction_check'],
  [/You review synthetic conversations/, 'session_judgement'],
  [/You review several sessions of one user's synthetic conversations/, 'session_judgements'],
  [/You flesh out simulated users/, 'persona_enrichment'],
  [/decide whether it states lasting personal information/, 'semantic_write'],
  [/Infer the user's Big Five personality scores/, 'personality_inference'],
  [/You maintain a PersonaTree of the user/, 'tree_ops'],
  [/update the user's core memory/, 'core_update'],
  [/Segment the session into topic episodes/, 'episodic_summary'],
  [/Update the user's procedural memory/, 'procedural_update'],
  [/Task: decide whether the RESPONSE answers the QUESTION/, 'judge_accuracy'],
  [/Task: judge whether the ANSWER follows from the REASONING/, 'judge_consistency'],
  [/Task: compare predicted PersonaTree operations/, 'judge_tree_ops'],
  [/Task: judge whether the ANSWER fits this user/, 'judge_persona'],
];

const extra: Responder[] = [];

/** Adds a responder tried before the built-in ones (e.g. the eval oracle). */
export function addResponder(responder: Responder): void {
  extra.push(responder);
}

/** Which prompt kind a request is: its structured-output name, else its system prompt. */
export function promptKind(request: FakeChatRequest): string | undefined {
  const format = request.body.response_format as { json_schema?: { name?: unknown } } | undefined;
  const name = format?.json_schema?.name;
  if (typeof name === 'string' && name in BY_SCHEMA) return name;
  const system = systemContent(request.messages);
  return BY_SYSTEM_PROMPT.find(([pattern]) => pattern.test(system))?.[1];
}

/**
 * The fake model's answer to a chat request: each prompt persona-forge sends is recognised by its
 * structured-output name (or its system prompt) and answered with content that follows the
 * prompt; undefined for prompts it does not know (the server then answers from the schema).
 */
export function modelAnswer(request: FakeChatRequest): unknown {
  for (const responder of extra) {
    const answer = responder(request);
    if (answer !== undefined) return answer;
  }
  const kind = promptKind(request);
  return kind === undefined ? undefined : BY_SCHEMA[kind]?.(request);
}
