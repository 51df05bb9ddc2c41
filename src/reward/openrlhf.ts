import type { OpenRlhfRequest, RewardItem, RewardResponse } from '../schemas/reward.js';

/**
 * OpenRLHF's remote reward contract (`--remote_rm_url …/get_reward`): `query` holds prompt plus
 * response, `prompts` the prompts, `labels` the dataset label. A label that is a JSON object is
 * spread into item columns (so `{"solution": …, "choices": …}` works); any other label is the
 * `solution`.
 *
 * @example openRlhfItems({ query: ['Q? <answer>b</answer>'], prompts: ['Q? '], labels: ['b'] })[0].completion // '<answer>b</answer>'
 */
export function openRlhfItems(request: OpenRlhfRequest): RewardItem[] {
  return request.query.map((query, index) => {
    const prompt = request.prompts?.[index] ?? '';
    const completion = prompt !== '' && query.startsWith(prompt) ? query.slice(prompt.length) : query;
    const label = request.labels?.[index] ?? null;
    const item: RewardItem = { completion, question: prompt };
    if (label === null) return item;
    const columns = parseObject(label);
    if (columns !== null) return { ...columns, ...item };
    return { ...item, solution: label };
  });
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
 * `{rewards, scores, extra_logs}`. Failed items stay null (never 0); `extra_logs` carries every
 * component and the error codes so the trainer's logs show why.
 */
export function openRlhfResponse(response: RewardResponse): {
  rewards: Array<number | null>;
  scores: Array<number | null>;
  extra_logs: Record<string, unknown>;
} {
  return {
    rewards: response.rewards,
    scores: response.rewards,
    extra_logs: { ...response.components, errors: response.errors, usage: response.usage },
  };
}
