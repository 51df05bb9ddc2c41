import { describe, expect, it } from 'vitest';
import { JUDGE_KINDS, JUDGE_PROMPT_VERSION, renderBatch } from './judge-kinds.js';

describe('judge prompts', () => {
  it('anchor the PersonaTree judge at every SPEC.md §2 anchor', () => {
    const prompt = JUDGE_KINDS.tree_ops.system;
    for (const anchor of [
      '1.0 near-perfect',
      '0.7 high',
      '0.5 usable',
      '0.3 about half',
      '0.0 only slightly',
      '-0.3 barely',
      '-0.5 off target',
      '-0.7 catastrophic',
      '-1.0 meaningless',
    ]) {
      expect(prompt).toContain(anchor);
    }
    expect(JUDGE_KINDS.tree_ops.range).toEqual([-1, 1]);
  });

  it('ask the accuracy judge to be generous on wording and dates', () => {
    expect(JUDGE_KINDS.accuracy.system).toMatch(/generous/i);
    expect(JUDGE_KINDS.accuracy.system).toMatch(/date/i);
    expect(JUDGE_PROMPT_VERSION).toBe('pf-judge-v1');
  });

  it('render packed items with their ids', () => {
    expect(
      renderBatch('accuracy', [
        { question: 'Q1', reference: 'R1', answer: 'A1' },
        { question: 'Q2', reference: 'R2', answer: 'A2' },
      ]),
    ).toMatchInlineSnapshot(`
        "### Item 0
        QUESTION: Q1
        REFERENCE: R1
        RESPONSE: A1

        ### Item 1
        QUESTION: Q2
        REFERENCE: R2
        RESPONSE: A2"
      `);
  });

  it('offline heuristics stay in range and favour matching answers', () => {
    const options = { f1Threshold: 0.5 };
    expect(JUDGE_KINDS.accuracy.offline({ reference: 'May 7 2023', answer: 'on 7 May 2023' }, options)).toBe(
      1,
    );
    expect(JUDGE_KINDS.accuracy.offline({ reference: 'Paris', answer: 'Rome' }, options)).toBe(0);
    const consistent = JUDGE_KINDS.consistency.offline(
      { reasoning: 'she likes hotpot', memory: '', answer: 'hotpot' },
      options,
    );
    const unrelated = JUDGE_KINDS.consistency.offline(
      { reasoning: 'she likes hotpot', memory: '', answer: 'skiing' },
      options,
    );
    expect(consistent).toBeGreaterThan(unrelated);
    expect(
      JUDGE_KINDS.tree_ops.offline({ gt_ops: 'NO_OP()', pred_ops: 'ADD(a.b, "x")' }, options),
    ).toBeGreaterThanOrEqual(-1);
  });
});
