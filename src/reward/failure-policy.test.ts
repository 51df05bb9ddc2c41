import { describe, expect, it } from 'vitest';
import { type RewardResponse, RewardServerConfig } from '../schemas/reward.js';
import { GroupScores, trainerRewards } from './failure-policy.js';
import { splitCompletion } from './openrlhf.js';

const config = (onFailure: unknown = {}) => RewardServerConfig.parse({ onFailure }).onFailure;

function response(rewards: Array<number | null>, code = 'judge_error'): RewardResponse {
  return {
    rewards,
    components: {},
    errors: rewards.flatMap((value, index) =>
      value === null ? [{ index, reward: 'accuracy', code: code as 'judge_error', message: 'down' }] : [],
    ),
    usage: {
      items: rewards.length,
      judge_calls: 0,
      judge_items: 0,
      cache_hits: 0,
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

  it('neutral remembers a group across requests (OpenRLHF sends one completion per request)', () => {
    const history = new GroupScores();
    trainerRewards(response([0.8]), [item('A')], 'accuracy', config(), history);
    trainerRewards(response([0.4]), [item('A')], 'accuracy', config(), history);
    expect(trainerRewards(response([null]), [item('A')], 'accuracy', config(), history).rewards).toEqual([
      0.6,
    ]);
    expect(trainerRewards(response([null]), [item('B')], 'accuracy', config(), history).rewards).toBeNull();
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
