import { z } from 'zod';
import { LlmSchemaError } from '../../errors/index.js';
import type { LlmClient } from '../../llm/types.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../../schemas/common.js';
import type { MemoryTaskName, TeacherTarget } from '../../schemas/memory.js';
import { parseTreeOps } from '../tree/parse-ops.js';
import { scoreTreeOps } from '../tree/score-ops.js';
import { formatPersonalityScores, formatSemanticDecision, type SemanticDecision } from './targets.js';
import { CoreAnswer, EpisodesAnswer, ProceduralAnswer, sessionTarget } from './teacher-session.js';

// Model output schemas are lenient (STYLE.md): only the fields we read, nullish where optional.
export const SemanticAnswer = z.object({
  reason: z.string().nullish(),
  decision: z.boolean(),
  content: z.string().nullish(),
  keywords: z.array(z.string()).nullish(),
});
const score = z.number().int().min(1).max(5);
export const PersonalityAnswer = z.object({
  openness: score,
  conscientiousness: score,
  extraversion: score,
  agreeableness: score,
  neuroticism: score,
});
export const TreeAnswer = z.object({ ops: z.string() });
export const INSTRUCTIONS: Record<MemoryTaskName, string> = {
  core_update:
    "At the end of a session, update the user's core memory: the human block (name, age, gender, preferences as '; '-separated clauses like 'likes jasmine tea', interests, lasting facts) and the persona block (identity, roles, interaction style). Keep what still holds, replace what changed.",
  episodic_summary:
    'Segment the session into topic episodes. For each give topic_summary, keywords and source_dialog_indices (the turn indices it covers); together the episodes must cover every turn exactly once.',
  procedural_update:
    "Update the user's procedural memory: at most 5 entries of goals and habits, each a unique key and one sentence, keeping only the latest state; drop a goal once it is achieved or given up.",
  semantic_write:
    'You maintain the semantic memory of a personal assistant. Given the latest dialogue turn and its context, decide whether it states lasting personal information about the user (preferences, habits, facts, relationships, goals, named objects in images). Answer with reason, decision (true/false), content (one sentence, or null) and keywords.',
  personality_inference:
    "Infer the user's Big Five personality scores (integers 1-5) from the user's recent messages (the latest and those in context); 3 where they give not enough evidence.",
  tree_ops:
    'You maintain a PersonaTree of the user. Given the current filled leaves (dotted path -> value) and the latest dialogue chunk, output the operations, one per line, nothing else: ADD(path, "value"), UPDATE(path, "value") (merge still-valid old content with the new), DELETE(path, None), or NO_OP() when nothing changes. Return them in the field ops.',
};

/** The answer schema of each memory task (one trace's target). */
export const ANSWER_SCHEMAS: Record<MemoryTaskName, z.ZodType> = {
  semantic_write: SemanticAnswer,
  personality_inference: PersonalityAnswer,
  tree_ops: TreeAnswer,
  core_update: CoreAnswer,
  episodic_summary: EpisodesAnswer,
  procedural_update: ProceduralAnswer,
};

export interface TeacherContext {
  llm: LlmClient;
  role: string;
  stage: string;
  treeAgreement: number;
}

/**
 * Asks the teacher role for one memory-task target (one call for one trace) and compares it with
 * the gold target (see `teacherTarget`). Returns null when the call fails (counted by the llm layer).
 *
 * @example
 * const teacher = await askTeacher(context, 'semantic_write', trace.input, gold);
 */
export async function askTeacher(
  context: TeacherContext,
  task: MemoryTaskName,
  input: Record<string, unknown>,
  gold: unknown,
): Promise<TeacherTarget | null> {
  const messages = [
    { role: 'system' as const, content: INSTRUCTIONS[task] },
    { role: 'user' as const, content: JSON.stringify(input) },
  ];
  const result = await context.llm.safeStructured(context.role, {
    messages,
    stage: context.stage,
    temperature: 0,
    schema: ANSWER_SCHEMAS[task],
    schemaName: task,
  });
  if (!result.ok) return null;
  return teacherTarget(task, result.value, gold, context.llm.modelFor(context.role), context.treeAgreement);
}

/**
 * A teacher's answer (already valid against `ANSWER_SCHEMAS[task]`) as a target, with its
 * agreement with gold: semantic writes agree on the decision, personality scores when every trait
 * is on the same side of 3 (no evidence) as the gold and at most 1 away, tree ops when
 * `scoreTreeOps` reaches `treeAgreement`; the session-end tasks as `sessionTarget` says.
 *
 * @example teacherTarget('semantic_write', { decision: true }, gold, 'qwen', 0.5).agrees
 */
export function teacherTarget(
  task: MemoryTaskName,
  answer: unknown,
  gold: unknown,
  model: string,
  treeAgreement: number,
): TeacherTarget {
  if (task === 'semantic_write') {
    const answered = answer as z.infer<typeof SemanticAnswer>;
    const value: SemanticDecision = {
      reason: answered.reason ?? '',
      decision: answered.decision,
      content: answered.content ?? null,
      keywords: answered.keywords ?? [],
    };
    return {
      model,
      text: formatSemanticDecision(value),
      value,
      agrees: value.decision === (gold as SemanticDecision).decision,
    };
  }
  if (task === 'personality_inference') {
    const value = answer as BigFive;
    // Same side of 3 on every trait (the gold reads the side the message shows), at most 1 apart.
    const side = (score: number) => Math.sign(score - 3);
    const agrees = BIG_FIVE_TRAITS.every((trait) => {
      const expected = (gold as BigFive)[trait];
      return Math.abs(value[trait] - expected) <= 1 && side(value[trait]) === side(expected);
    });
    return { model, text: formatPersonalityScores(value), value, agrees };
  }
  if (task === 'core_update' || task === 'episodic_summary' || task === 'procedural_update') {
    return sessionTarget(task, answer, model, gold);
  }
  const ops = (answer as z.infer<typeof TreeAnswer>).ops;
  return {
    model,
    text: ops.trim(),
    value: parseTreeOps(ops).ops,
    agrees: scoreTreeOps(ops, gold as string).score >= treeAgreement,
  };
}

/**
 * The teacher's client: an answer that never fit the schema stays a missing target
 * (LLM_SCHEMA_MISMATCH below), but a call that failed (throttled past its retries, an outage)
 * fails the user with the call's own code, never read as a schema failure.
 */
export function teacherClient(llm: LlmClient): LlmClient {
  return {
    ...llm,
    async safeStructured(role, request) {
      const result = await llm.safeStructured(role, request);
      if (!result.ok && !(result.error instanceof LlmSchemaError)) throw result.error;
      return result;
    },
  };
}
