import { parseTreeOps } from '../memory/index.js';
import type { RewardServerConfig } from '../schemas/reward.js';
import { isOpListItem } from './item-context.js';
import { parseResponse, parseRetrieveQuery } from './parse-response.js';
import type { ItemOutcome, RewardFunction } from './types.js';

type FormatConfig = RewardServerConfig['functions']['format'];

/**
 * Rule format reward in [0, 1] with graded partial credit (SPEC.md §1 response stage).
 *
 * Response-stage items (default), credits add up (defaults from `functions.format`):
 * - `think` 0.25: the completion starts with a non-empty `<think>…</think>`;
 * - `action` 0.25: after it, exactly one `<answer>` or `<retrieve>` block (never both, none
 *   repeated) and no stray text outside the blocks;
 * - `payload` 0.5: the answer is non-empty, or the retrieve body is a JSON object with a
 *   non-empty `keywords` string and `start_time`/`end_time` as `YYYY-MM-DD HH:MM` or null
 *   (start not after end); `partialPayload` 0.25 when it is a JSON object with a bad field.
 *   Payload credit needs exactly one action block.
 * The sum is divided by the sum of the three full credits so a perfect completion scores 1.
 *
 * Op-list items (a non-empty `gt_ops` column or `task: "tree_ops"`): the share of non-empty
 * lines (after an optional leading `<think>` block) that are valid PersonaTree operations,
 * times `duplicatePathFactor` when two operations touch the same path; no lines scores 0.
 *
 * @example formatScore('<think>r</think><answer>b</answer>', config) // 1
 */
export function formatScore(completion: string, config: FormatConfig, opList = false): number {
  if (opList) return opListFormatScore(completion, config);
  const parsed = parseResponse(completion);
  const full = config.think + config.action + config.payload;
  if (full === 0) return 0;
  let score = 0;
  if (parsed.thinkFirst && parsed.think !== null && parsed.think !== '') score += config.think;
  const actions = parsed.answerCount + parsed.retrieveCount;
  if (actions === 1) {
    if (parsed.stray === '') score += config.action;
    if (parsed.answer !== null) {
      if (parsed.answer !== '') score += config.payload;
    } else if (parsed.retrieve !== null) {
      const query = parseRetrieveQuery(parsed.retrieve);
      if (query.ok) score += config.payload;
      else if (query.json) score += config.partialPayload;
    }
  }
  return Math.round((score / full) * 10_000) / 10_000;
}

function opListFormatScore(completion: string, config: FormatConfig): number {
  const body = completion.replace(/^\s*<think>[\s\S]*?<\/think>/, '');
  const { ops, lines } = parseTreeOps(body);
  if (lines.length === 0) return 0;
  const paths = ops.filter((op) => op.op !== 'NO_OP').map((op) => op.path);
  const duplicated = new Set(paths).size !== paths.length;
  const share = ops.length / lines.length;
  return Math.round(share * (duplicated ? config.duplicatePathFactor : 1) * 10_000) / 10_000;
}

export const formatReward: RewardFunction = {
  name: 'format',
  description:
    'Rule: <think> first, then exactly one <answer> or <retrieve>{json} (graded partial credit); for op-list items, the share of lines that are valid PersonaTree operations. Range [0,1].',
  requiredColumns: [],
  usesJudge: false,
  score(run) {
    const config = run.config.format;
    return run.items.map((item): ItemOutcome => {
      return { value: formatScore(item.completion, config, isOpListItem(item)) };
    });
  },
};
