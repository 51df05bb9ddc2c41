import { describe, expect, it } from 'vitest';
import { RewardServerConfig } from '../schemas/reward.js';
import { formatScore } from './format.js';

const config = RewardServerConfig.parse({}).functions.format;

describe('formatScore (response stage)', () => {
  it.each([
    ['<think>reason</think><answer>(b)</answer>', 1],
    [
      '<think>r</think>\n<retrieve>{"keywords":"tea","start_time":null,"end_time":"2024-01-02 10:00"}</retrieve>',
      1,
    ],
    // retrieve JSON parses but a time is malformed: partial payload credit
    [
      '<think>r</think><retrieve>{"keywords":"tea","start_time":"yesterday","end_time":null}</retrieve>',
      0.75,
    ],
    // retrieve body is not JSON
    ['<think>r</think><retrieve>tea please</retrieve>', 0.5],
    // no think
    ['<answer>b</answer>', 0.75],
    // stray text outside blocks loses the action credit
    ['<think>r</think>so: <answer>b</answer>', 0.75],
    // both answer and retrieve: only the think credit
    ['<think>r</think><answer>b</answer><retrieve>{"keywords":"x"}</retrieve>', 0.25],
    // empty think, empty answer
    ['<think></think><answer></answer>', 0.25],
    ['plain text', 0],
  ])('%s → %s', (completion, expected) => {
    expect(formatScore(completion, config)).toBe(expected);
  });
});

describe('formatScore (op-list items)', () => {
  it.each([
    ['ADD(4_Identity.Name, "Kanoa")\nNO_OP()', 1],
    ['ADD(4_Identity.Name, "Kanoa")\nadd the hobby', 0.5],
    ['<think>x</think>\nUPDATE(a.b, "x")\nDELETE(a.c, None)', 1],
    // two ops on one path: one operation per attribute (SPEC.md §2)
    ['ADD(a.b, "x")\nUPDATE(a.b, "y")', 0.5],
    ['', 0],
  ])('%s → %s', (completion, expected) => {
    expect(formatScore(completion, config, true)).toBe(expected);
  });
});
