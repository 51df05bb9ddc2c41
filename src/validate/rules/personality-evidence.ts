import { unsupportedScores } from '../../memory/gold/personality-reading.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../../schemas/common.js';
import type { MemoryTrace } from '../../schemas/memory.js';
import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * The user messages a personality-inference step reads, oldest first: the user turns of its
 * context and its latest message (`input.turn`); null when it has no user message.
 */
export function personalityMessages(trace: MemoryTrace): string[] | null {
  const turn = (trace.input as { turn?: { text?: unknown; speaker?: unknown } }).turn;
  if (typeof turn?.text !== 'string' || turn.speaker !== 'user') return null;
  const context = (trace.input as { context?: unknown }).context;
  const earlier = Array.isArray(context)
    ? context.flatMap((item: { text?: unknown; speaker?: unknown }) =>
        item?.speaker === 'user' && typeof item.text === 'string' ? [item.text] : [],
      )
    : [];
  return [...earlier, turn.text];
}

function asBigFive(value: unknown): BigFive | null {
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  return BIG_FIVE_TRAITS.every((trait) => typeof record[trait] === 'number') ? (value as BigFive) : null;
}

/**
 * The problems of one personality-inference step: its gold target (and a teacher target that
 * agrees, which export may train on) must be what a reader infers from the messages the step
 * shows — a trait is scored off 3 only when at least two of them show it on that side, 5 or 1
 * only when four do and none the other way, 3 ("not enough evidence") otherwise
 * (src/memory/gold/personality-reading.ts). The hidden profile is not evidence.
 *
 * @example personalityTargetProblems(trace) // ['gold: extraversion 4: not enough evidence (1 high, 0 low of 4 messages)']
 */
export function personalityTargetProblems(trace: MemoryTrace): readonly string[] {
  let problems = checked.get(trace);
  if (problems === undefined) {
    problems = targetProblems(trace);
    checked.set(trace, problems);
  }
  return problems;
}

/** Read once per trace: the rule and the fidelity meter both ask. */
const checked = new WeakMap<MemoryTrace, readonly string[]>();

function targetProblems(trace: MemoryTrace): string[] {
  const messages = personalityMessages(trace);
  if (messages === null) return ['the step has no user message (input.turn) to read the target from'];
  const targets: Array<[string, unknown]> = [['gold', trace.gold.value]];
  if (trace.teacher?.agrees === true) targets.push(['teacher', trace.teacher.value]);
  const problems: string[] = [];
  for (const [source, value] of targets) {
    const scores = asBigFive(value);
    if (scores === null) {
      problems.push(`${source}: the target is not five Big Five scores`);
      continue;
    }
    for (const problem of unsupportedScores(messages, scores, { sideOnly: source === 'teacher' }))
      problems.push(`${source}: ${problem}`);
  }
  return problems;
}

/**
 * Every personality-inference target says what its messages show: the graded score a reader
 * infers for each trait, 3 ("not enough evidence") where they show too little.
 *
 * @example personalityEvidenceCheck.run(indexUser(bundle), options)
 */
export const personalityEvidenceCheck: RuleCheck = {
  name: 'personality_evidence',
  description:
    'personality-inference targets are what their recent messages show (graded; 3 = not enough evidence)',
  run({ bundle }) {
    const failures: RuleFailure[] = [];
    // Model-written text: the targets are a model's reading (personality-evidence/1), not the cues'.
    if (!bundle.dialogue.offline) return failures;
    for (const trace of bundle.memory?.traces ?? []) {
      if (trace.task !== 'personality_inference') continue;
      const problems = personalityTargetProblems(trace);
      if (problems.length === 0) continue;
      failures.push({
        check: 'personality_evidence',
        userId: bundle.plan.userId,
        location: `traces[${trace.id}].gold`,
        reason: problems.join('; '),
      });
    }
    return failures;
  },
};
