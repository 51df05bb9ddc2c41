import { unsupportedTraits } from '../../memory/gold/personality-evidence.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../../schemas/common.js';
import type { MemoryTrace } from '../../schemas/memory.js';
import type { RuleCheck, RuleFailure } from '../types.js';

/** The user message a personality-inference step reads (`input.turn`), or null when it has none. */
export function personalityMessage(trace: MemoryTrace): string | null {
  const turn = (trace.input as { turn?: { text?: unknown; speaker?: unknown } }).turn;
  return typeof turn?.text === 'string' && turn.speaker === 'user' ? turn.text : null;
}

function asBigFive(value: unknown): BigFive | null {
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  return BIG_FIVE_TRAITS.every((trait) => typeof record[trait] === 'number') ? (value as BigFive) : null;
}

/**
 * The problems of one personality-inference step: its gold target (and a teacher target that
 * agrees, which export may train on) must read only what its message shows — a trait scored
 * above or below 3 needs a cue on that side in the text, and a trait the text shows needs a
 * score on that side (src/memory/gold/personality-evidence.ts). The hidden profile is not
 * evidence.
 *
 * @example personalityTargetProblems(trace) // ['gold: extraversion 4: the message shows no cue']
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
  const text = personalityMessage(trace);
  if (text === null) return ['the step has no user message (input.turn) to read the target from'];
  const targets: Array<[string, unknown]> = [['gold', trace.gold.value]];
  if (trace.teacher?.agrees === true) targets.push(['teacher', trace.teacher.value]);
  const problems: string[] = [];
  for (const [source, value] of targets) {
    const scores = asBigFive(value);
    if (scores === null) {
      problems.push(`${source}: the target is not five Big Five scores`);
      continue;
    }
    for (const problem of unsupportedTraits(text, scores)) problems.push(`${source}: ${problem}`);
  }
  return problems;
}

/**
 * Every personality-inference target says what its message shows: traits with evidence in the
 * text on the side the text shows, 3 ("no evidence") for the rest.
 *
 * @example personalityEvidenceCheck.run(indexUser(bundle), options)
 */
export const personalityEvidenceCheck: RuleCheck = {
  name: 'personality_evidence',
  description: 'personality-inference targets read only the traits their message shows, on the side it shows',
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
