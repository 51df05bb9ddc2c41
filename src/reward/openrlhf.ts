import type { OpenRlhfRequest, RewardItem, RewardResponse } from '../schemas/reward.js';
import type { TrainerRewards } from './failure-policy.js';

/**
 * OpenRLHF's remote reward contract (`--reward.remote_url http://host:port/get_reward`, v0.11:
 * `openrlhf/utils/agent.py` `_fetch_rewards_via_http`). Each request carries `query` (the prompt
 * and the response decoded with `skip_special_tokens=False`, so end and pad tokens are in it),
 * `prompts` and `labels` (the dataset's label column: any JSON value).
 *
 * The completion is the query after its prompt, matched exactly, then after trimming whitespace,
 * then — for a prompt OpenRLHF truncated from the left — after the longest prompt suffix the query
 * starts with. A query that does not contain its prompt is an `invalid_item`, never scored whole.
 *
 * @example openRlhfItems({ query: ['Q? <answer>b</answer><|im_end|>'], prompts: ['Q? '], labels: ['b'] }, ['<|im_end|>'])[0].completion // '<answer>b</answer>'
 */
export function openRlhfItems(
  request: OpenRlhfRequest,
  stripTokens: readonly string[],
): Array<{ item: RewardItem; problem?: string }> {
  return request.query.map((rawQuery, index) => {
    const query = strip(rawQuery, stripTokens);
    const prompt = strip(request.prompts?.[index] ?? '', stripTokens);
    const label = request.labels?.[index] ?? null;
    const split = splitCompletion(query, prompt);
    const item: RewardItem = { completion: split?.trim() ?? query.trim(), question: prompt };
    const problem =
      split === undefined
        ? `query ${index} does not contain its prompt (prompts[${index}]); the completion cannot be told from the prompt`
        : undefined;
    const labelled = withLabel(item, label);
    return problem === undefined ? { item: labelled } : { item: labelled, problem };
  });
}

function strip(text: string, tokens: readonly string[]): string {
  let out = text;
  for (const token of tokens) if (out.includes(token)) out = out.split(token).join('');
  return out;
}

/** The text after the prompt, or undefined when the query does not hold the prompt. */
export function splitCompletion(query: string, prompt: string): string | undefined {
  if (prompt === '') return query;
  if (query.startsWith(prompt)) return query.slice(prompt.length);
  const trimmedQuery = query.trimStart();
  const trimmedPrompt = prompt.trim();
  if (trimmedPrompt === '') return query;
  if (trimmedQuery.startsWith(trimmedPrompt)) return trimmedQuery.slice(trimmedPrompt.length);
  // Left-truncated prompt: the query starts with a suffix of the prompt. Anchor on the prompt's tail.
  const tail = trimmedPrompt.slice(-Math.min(32, trimmedPrompt.length));
  let from = 0;
  for (;;) {
    const at = trimmedQuery.indexOf(tail, from);
    if (at < 0) return undefined;
    const head = trimmedQuery.slice(0, at + tail.length);
    if (trimmedPrompt.endsWith(head.trimStart())) return trimmedQuery.slice(at + tail.length);
    from = at + 1;
  }
}

function withLabel(item: RewardItem, label: unknown): RewardItem {
  if (label === null || label === undefined) return item;
  if (typeof label === 'string') {
    const columns = parseObject(label);
    return columns === null ? { ...item, solution: label } : { ...columns, ...item };
  }
  if (typeof label === 'number' || typeof label === 'boolean') return { ...item, solution: String(label) };
  if (Array.isArray(label)) return { ...item, solution: JSON.stringify(label) };
  return { ...(label as Record<string, unknown>), ...item };
}

function parseObject(text: string): Record<string, unknown> | null {
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Why a request cannot be scored whatever is retried (HTTP 400), or undefined. OpenRLHF sends
 * `labels: [""]` when `--data.label_key` is unset (v0.11 `prompts_dataset.py`), and every reward
 * that reads the row's solution would then fail: a client error that names the flag, never 503.
 */
export function missingLabelProblem(
  request: OpenRlhfRequest,
  reward: string,
  requiredColumns: readonly string[],
): string | undefined {
  if (requiredColumns.length === 0) return undefined;
  const labels = request.labels;
  const empty = request.query.flatMap((_query, index) => {
    const label = labels?.[index];
    return label === undefined || label === null || (typeof label === 'string' && label.trim() === '')
      ? [index]
      : [];
  });
  if (empty.length === 0) return undefined;
  const which = labels === undefined ? 'the request has no labels' : `labels[${empty[0]}] is empty`;
  return `${which} (${empty.length} of ${request.query.length}): the "${reward}" reward needs each row's ${requiredColumns.join(', ')}; OpenRLHF sends "" when --data.label_key is unset, start it with --data.label_key solution`;
}

/**
 * `{rewards, scores, extra_logs}` as OpenRLHF reads them: `torch.tensor([v])` runs on `rewards`,
 * `scores` and every `extra_logs` value, so all three hold one finite number per query. Failed
 * items carry the `onFailure` value; `extra_logs.pf_failed` marks them (1), and a component that
 * failed is logged as 0 there (the flag says it is not a score), so no log value is null.
 * `scores` is the reward mapped into [0, 1] over the reward's `range` (personavlm: 0–2.5), the
 * range OpenRLHF's dynamic filtering (`--algo.dynamic_filtering_range`, default 0 1) expects.
 */
export function openRlhfResponse(
  response: RewardResponse,
  trainer: TrainerRewards & { rewards: number[] },
  range: readonly [number, number] = [0, 1],
): { rewards: number[]; scores: number[]; extra_logs: Record<string, number[]> } {
  const extra: Record<string, number[]> = {};
  for (const [name, values] of Object.entries(response.components)) {
    extra[name] = values.map((value) => value ?? 0);
  }
  extra.pf_failed = response.rewards.map((value) => (value === null ? 1 : 0));
  const [low, high] = range;
  const span = high - low;
  const scores = trainer.rewards.map((value) =>
    span <= 0 ? 0 : Math.round(Math.min(1, Math.max(0, (value - low) / span)) * 10_000) / 10_000,
  );
  return { rewards: trainer.rewards, scores, extra_logs: extra };
}
