import type { RuleCheck, RuleFailure } from '../types.js';

const STEP =
  /^\s*<think>([\s\S]*?)<\/think>\s*(?:<retrieve>([\s\S]*?)<\/retrieve>|<answer>([\s\S]*?)<\/answer>)\s*$/;
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

/** The parsed form of one trajectory message, or the reason it is malformed. */
export type ParsedStep =
  | {
      ok: true;
      kind: 'retrieve';
      query: { keywords: string; start_time: string | null; end_time: string | null };
    }
  | { ok: true; kind: 'answer'; answer: string }
  | { ok: false; reason: string };

/**
 * Parses one assistant message of the PersonaVLM response stage: `<think>…</think>` then exactly
 * one of `<answer>…</answer>` or `<retrieve>{"keywords", "start_time", "end_time"}</retrieve>`
 * (SPEC.md §1), times as "YYYY-MM-DD HH:MM" or null.
 *
 * @example parseTrajectoryStep('<think>x</think><answer>(b)</answer>') // { ok: true, kind: 'answer', answer: '(b)' }
 */
export function parseTrajectoryStep(text: string): ParsedStep {
  const match = STEP.exec(text);
  if (match === null)
    return { ok: false, reason: 'not <think>…</think> followed by one <retrieve> or <answer>' };
  const tag = /<\/?(think|retrieve|answer)>/;
  if (tag.test(match[1] ?? '')) return { ok: false, reason: 'nested tag inside <think>' };
  if (tag.test(match[2] ?? '') || tag.test(match[3] ?? ''))
    return { ok: false, reason: 'more than one <retrieve>/<answer> block' };
  if (match[3] !== undefined) return { ok: true, kind: 'answer', answer: match[3].trim() };
  let query: unknown;
  try {
    query = JSON.parse(match[2] ?? '');
  } catch {
    return { ok: false, reason: '<retrieve> body is not valid JSON' };
  }
  if (query === null || typeof query !== 'object' || Array.isArray(query)) {
    return { ok: false, reason: '<retrieve> body is not a JSON object' };
  }
  const { keywords, start_time: start, end_time: end } = query as Record<string, unknown>;
  if (typeof keywords !== 'string' || keywords.trim() === '')
    return { ok: false, reason: '<retrieve> without "keywords"' };
  for (const [name, value] of [
    ['start_time', start],
    ['end_time', end],
  ] as const) {
    if (value !== null && value !== undefined && !(typeof value === 'string' && TIME.test(value))) {
      return {
        ok: false,
        reason: `<retrieve> ${name} ${JSON.stringify(value)} is not "YYYY-MM-DD HH:MM" or null`,
      };
    }
  }
  return {
    ok: true,
    kind: 'retrieve',
    query: {
      keywords,
      start_time: (start as string | null | undefined) ?? null,
      end_time: (end as string | null | undefined) ?? null,
    },
  };
}

/**
 * Reasoning trajectories are well formed: every message but the last is a `<retrieve>` step, the
 * last an `<answer>`, at most `maxRetrievals` retrievals, and `retrievals` counts them.
 *
 * @example trajectoryTagsCheck.run(indexUser({ plan, dialogue, memory }), options)
 */
export const trajectoryTagsCheck: RuleCheck = {
  name: 'trajectory_tags',
  description: 'trajectory tags well formed (<think> then <retrieve>{json} or <answer>, ≤ 3 retrievals)',
  run({ bundle }, { config }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    for (const trajectory of bundle.memory?.trajectories ?? []) {
      const where = `trajectories[${trajectory.qaId}]`;
      const fail = (reason: string) =>
        failures.push({ check: 'trajectory_tags', userId, location: where, reason });
      if (trajectory.messages.length === 0) {
        fail('no messages');
        continue;
      }
      let retrievals = 0;
      trajectory.messages.forEach((message, i) => {
        const parsed = parseTrajectoryStep(message);
        const isLast = i === trajectory.messages.length - 1;
        if (!parsed.ok) fail(`message ${i}: ${parsed.reason}`);
        else if (parsed.kind === 'retrieve') {
          retrievals++;
          if (isLast) fail(`message ${i}: ends with <retrieve> instead of <answer>`);
        } else if (!isLast) fail(`message ${i}: <answer> before the last message`);
      });
      if (retrievals > config.maxRetrievals) fail(`${retrievals} retrievals (max ${config.maxRetrievals})`);
      if (retrievals !== trajectory.retrievals)
        fail(`records ${trajectory.retrievals} retrievals, messages hold ${retrievals}`);
    }
    return failures;
  },
};
