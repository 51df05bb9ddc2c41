import { describe, expect, it } from 'vitest';
import { type RewardResponse, RewardServerConfig } from '../schemas/reward.js';
import { trainerRewards } from './failure-policy.js';
import { GroupGate } from './group-gate.js';
import { splitCompletion } from './openrlhf.js';

const config = (onFailure: unknown = {}) => RewardServerConfig.parse({ onFailure }).onFailure;

function response(
  rewards: Array<number | null>,
  code = 'judge_error',
  judge: { items: number; failed: number } = { items: 0, failed: 0 },
): RewardResponse {
  return {
    rewards,
    components: {},
    errors: rewards.flatMap((value, index) =>
      value === null ? [{ index, reward: 'accuracy', code: code as 'judge_error', message: 'down' }] : [],
    ),
    usage: {
      items: rewards.length,
      judge_calls: 0,
      judge_items: judge.items,
      cache_hits: 0,
      judge_failed: judge.failed,
      offline: false,
      scorers: {},
      judge_model: 'm',
      prompt_version: 'v',
      elapsed_ms: 0,
      timed_out: false,
    },
  };
}
const item = (question: string) => ({ completion: 'c', question });

describe('onFailure policy', () => {
  it('neutral: a failed item gets the mean of its own group, so its advantage is 0', () => {
    const items = [item('A'), item('A'), item('A'), item('B'), item('B')];
    const out = trainerRewards(response([1, 0, null, 0.2, null]), items, 'accuracy', config());
    expect(out.rewards).toEqual([1, 0, 0.5, 0.2, 0.2]);
    expect(out).toMatchObject({ policy: 'neutral', filled: 2, codes: { judge_error: 2 } });
  });

  it('neutral: a group with no score gets one constant; a batch with no score is refused by default', () => {
    const items = [item('A'), item('A'), item('B'), item('B')];
    const out = trainerRewards(response([1, 0, null, null]), items, 'accuracy', config());
    expect(out.rewards?.[2]).toBe(out.rewards?.[3]);
    const none = trainerRewards(response([null, null]), [item('A'), item('A')], 'accuracy', config());
    expect(none.rewards).toBeNull();
    expect(none.reason).toMatch(/every item of the batch failed \(2× judge_error\)/);
    const constant = trainerRewards(
      response([null, null]),
      [item('A'), item('A')],
      'accuracy',
      config({ whenAllFailed: 'neutral' }),
    );
    expect(constant.rewards).toEqual([0, 0]);
  });

  it("groups by ms-swift's prompt_id, else the prompt before the first model turn; never across requests", () => {
    const system = { role: 'system', content: 'You are helpful.' };
    const user = { role: 'user', content: 'What do I do on weekends?' };
    const trajectory = (keywords: string, answer: string) => ({
      completion: answer,
      messages: [
        system,
        user,
        { role: 'assistant', content: `<retrieve>{"keywords": "${keywords}"}</retrieve>` },
        { role: 'user', content: `<memory>${keywords}</memory>` },
        { role: 'assistant', content: answer },
      ],
    });
    // Four trajectories of one prompt with different retrieval turns: one group.
    const items = [trajectory('a', 'x'), trajectory('b', 'y'), trajectory('c', 'z'), trajectory('d', 'w')];
    const out = trainerRewards(response([2, 0.5, 0.5, null]), items, 'accuracy', config());
    expect(out.rewards?.[3]).toBe(1);
    // prompt_id wins over the text: two ids, two groups, even with the same messages.
    const byId = [
      { ...trajectory('a', 'x'), prompt_id: 'prompt_0' },
      { ...trajectory('a', 'x'), prompt_id: 'prompt_0' },
      { ...trajectory('a', 'x'), prompt_id: 'prompt_1' },
      { ...trajectory('a', 'x'), prompt_id: 'prompt_1' },
    ];
    expect(trainerRewards(response([1, null, 0, null]), byId, 'accuracy', config()).rewards).toEqual([
      1, 1, 0, 0,
    ]);
    // A later request for prompt_0 sees nothing of the earlier one (ms-swift reuses the ids every step).
    expect(trainerRewards(response([0.2, null]), byId.slice(0, 2), 'accuracy', config()).rewards).toEqual([
      0.2, 0.2,
    ]);
  });

  it('a judge that answered nothing refuses the batch even when rule scores are left', () => {
    const items = [item('A'), item('A'), item('B'), item('B')];
    // MC items scored by rule (1, 0); both open items' judge calls failed.
    const down = trainerRewards(
      response([1, 0, null, null], 'judge_error', { items: 2, failed: 2 }),
      items,
      'accuracy',
      config(),
    );
    expect(down.rewards).toBeNull();
    expect(down.reason).toMatch(/judge answered none of the judge items of the batch \(2× judge_error\)/);
    // A judge too slow for the request's deadline: the same (timeouts are judge items).
    const slow = trainerRewards(response([1, 0, null, null], 'timeout'), items, 'accuracy', config());
    expect(slow.rewards).toBeNull();
    // One verdict came back (a flaky judge): the failed item is neutral in its group.
    const flaky = trainerRewards(
      response([1, 0, 0.5, null], 'judge_error', { items: 2, failed: 1 }),
      items,
      'accuracy',
      config(),
    );
    expect(flaky.rewards).toEqual([1, 0, 0.5, 0.5]);
  });

  it('OpenRLHF groups span requests only when declared, and close once complete', async () => {
    const gate = new GroupGate(5_000);
    gate.arrive('p', 4, [1], 1);
    const waiting = gate.wait('p', 4, [], 1);
    gate.arrive('p', 4, [0], 1);
    expect(gate.size).toBe(1);
    gate.arrive('p', 4, [0.5], 1);
    expect(await waiting).toEqual({ sum: 1.5, count: 3 });
    expect(gate.size).toBe(0);
    const items = [item('A')];
    const outside = new Map([
      [(await import('./failure-policy.js')).groupKey(items[0] as never) as string, { sum: 1.5, count: 3 }],
    ]);
    expect(trainerRewards(response([null]), items, 'accuracy', config(), outside).rewards).toEqual([0.5]);
    // Undeclared: a lone failed item has nothing to be neutral against.
    expect(trainerRewards(response([null]), items, 'accuracy', config()).rewards).toBeNull();
  });

  it('fail refuses any failure; value fills; per-reward settings win over the default', () => {
    const items = [item('A'), item('A')];
    expect(
      trainerRewards(response([1, null]), items, 'accuracy', config({ default: 'fail' })).rewards,
    ).toBeNull();
    const valued = config({ rewards: { accuracy: { value: -1 } } });
    expect(trainerRewards(response([1, null]), items, 'accuracy', valued).rewards).toEqual([1, -1]);
    expect(trainerRewards(response([null, null]), items, 'accuracy', valued).rewards).toEqual([-1, -1]);
    expect(trainerRewards(response([1, null]), items, 'format', valued).rewards).toEqual([1, 1]);
    expect(() => RewardServerConfig.parse({ onFailure: { default: 'zero' } })).toThrow();
  });
});

describe('OpenRLHF prompt matching', () => {
  it('splits exactly, after trimming, and after a left truncation; refuses a query without its prompt', () => {
    expect(splitCompletion('PROMPT answer', 'PROMPT ')).toBe('answer');
    expect(splitCompletion('\nPROMPT\nanswer', ' PROMPT\n\n')).toBe('\nanswer');
    const prompt = `${'context sentence number one. '.repeat(4)}<|im_start|>assistant\n`;
    expect(splitCompletion(`${prompt.slice(50)}<answer>x</answer>`, prompt)?.trim()).toBe(
      '<answer>x</answer>',
    );
    expect(splitCompletion('something else entirely', prompt)).toBeUndefined();
  });
});
