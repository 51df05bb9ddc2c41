import type { RewardItem } from '../schemas/reward.js';
import { type ParsedResponse, parseResponse } from './parse-response.js';
import { contentText } from './text.js';

/**
 * What the content rewards read from one item, derived once: the question, the reasoning of
 * every assistant turn, the memory blocks retrieved during the rollout and the parsed completion.
 * Retrieval results are `tool` turns or user turns wrapped in `<memory>…</memory>` (what the
 * python `pf_retrieval` scheduler appends).
 *
 * @example itemContext({ completion: '<think>a</think><answer>b</answer>' }).parsed.answer // 'b'
 */
export interface ItemContext {
  item: RewardItem;
  parsed: ParsedResponse;
  question: string;
  reasoning: string;
  memory: string;
}

const MEMORY_BLOCK = /<memory>([\s\S]*?)<\/memory>/g;

function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function itemContext(item: RewardItem): ItemContext {
  const parsed = parseResponse(item.completion);
  const messages = item.messages ?? [];
  const memoryParts: string[] = [];
  const thinkParts: string[] = [];
  let lastUser = '';
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as (typeof messages)[number];
    const text = contentText(message.content);
    const isFinalCompletion = index === messages.length - 1 && text === item.completion;
    if (message.role === 'tool' || message.role === 'tool_response') {
      memoryParts.push(text);
    } else if (message.role === 'user') {
      const blocks = [...text.matchAll(MEMORY_BLOCK)].map((match) => (match[1] ?? '').trim());
      if (blocks.length > 0) memoryParts.push(...blocks);
      else lastUser = text;
    } else if (message.role === 'assistant' && !isFinalCompletion) {
      const think = parseResponse(text).think;
      if (think !== null) thinkParts.push(think);
    }
  }
  if (parsed.think !== null) thinkParts.push(parsed.think);
  const question = asString(item.question) ?? asString(item.query) ?? lastUser;
  return {
    item,
    parsed,
    question,
    reasoning: thinkParts.join('\n'),
    memory: memoryParts.join('\n'),
  };
}

/**
 * True when a column carries a value: exported RL rows fill unused columns with `""` or `[]`
 * (e.g. `gt_ops: ""` on QA rows, `memory_snapshot: ""` when none), which count as absent.
 */
export function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** A PersonaTree op-list item (MemListener task): `task: "tree_ops"` or a non-empty `gt_ops`. */
export function isOpListItem(item: RewardItem): boolean {
  return item.task === 'tree_ops' || hasValue(item.gt_ops);
}
