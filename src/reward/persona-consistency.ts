import { hasValue, isOpListItem } from './item-context.js';
import { extractAnswer } from './parse-response.js';
import { contentText } from './text.js';
import { fromJudge, type ItemOutcome, notApplicable, type RewardFunction } from './types.js';

/** Columns that may carry the user's profile, in order of preference. */
const PROFILE_COLUMNS = ['profile', 'persona', 'core_memory', 'user_profile'] as const;

/**
 * The user profile an item carries: a profile column (string or JSON, plus `big_five`), else the
 * core memory and personality of its `memory_snapshot` (exported RL rows), else its system
 * message (where exported prompts render the profile). Null when none.
 */
export function profileOf(item: Record<string, unknown>): string | null {
  const column = PROFILE_COLUMNS.map((name) => item[name]).find(hasValue);
  if (column !== undefined) {
    const bigFive = item.big_five ?? item.personality;
    return (
      (typeof column === 'string' ? column : JSON.stringify(column)) +
      (bigFive === undefined ? '' : `\nPERSONALITY: ${JSON.stringify(bigFive)}`)
    );
  }
  if (hasValue(item.memory_snapshot)) {
    try {
      const snapshot = (
        typeof item.memory_snapshot === 'string' ? JSON.parse(item.memory_snapshot) : item.memory_snapshot
      ) as { core?: unknown; personality?: { p?: unknown } };
      if (snapshot?.core !== undefined) {
        return `CORE MEMORY: ${JSON.stringify(snapshot.core)}\nPERSONALITY (Big Five 1–5): ${JSON.stringify(snapshot.personality?.p ?? null)}`;
      }
    } catch {
      // Not JSON: fall through to the system message.
    }
  }
  const messages = Array.isArray(item.messages)
    ? (item.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  const system = messages.find((message) => message.role === 'system');
  const text = system === undefined ? '' : contentText(system.content);
  return text.trim() === '' ? null : text;
}

/**
 * Does the answer fit the user's profile and personality? LLM judge, range [0, 1].
 *
 * @example POST /v1/rewards {"reward":"persona_consistency","items":[{"completion":"…","profile":"vegan runner"}]}
 */
export const personaConsistencyReward: RewardFunction = {
  name: 'persona_consistency',
  description:
    "LLM judge: does the answer fit the user's profile, preferences and Big Five personality (a `profile`/`persona`/`core_memory` column, else `memory_snapshot`, else the system message)? Range [0,1].",
  requiredColumns: ['profile'],
  usesJudge: true,
  score(run) {
    return run.items.map((item, index): ItemOutcome | Promise<ItemOutcome> => {
      if (isOpListItem(item)) return notApplicable('op-list item: score it with tree_ops');
      const profile = profileOf(item);
      if (profile === null)
        return notApplicable('no profile (profile/persona/core_memory, memory_snapshot or system message)');
      const context = run.context(index);
      const answer = extractAnswer(context.parsed, item.completion);
      if (answer === null) return { value: 0 };
      return run.judge
        .evaluate('persona', { profile, question: context.question, answer })
        .then((outcome) => {
          run.noteJudge(outcome);
          return fromJudge(outcome);
        });
    });
  },
};
