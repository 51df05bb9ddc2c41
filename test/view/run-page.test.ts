import { describe, expect, it } from 'vitest';
import type { RunFacts } from '../../src/view/run-facts.js';
import { collectRunPage } from '../../src/view/run-page.js';

const figure = (value: number, ok: boolean) => ({
  description: 'answerable questions whose evidence turns are missing',
  value,
  unit: '%',
  target: 0,
  kind: 'max',
  count: value,
  of: 100,
  ok,
});

function facts(
  overrides: { quarantinedUsers?: number; fidelityOk?: boolean; status?: string } = {},
): RunFacts {
  const users = new Map(
    Array.from({ length: 10 }, (_, i) => [
      `u${i}`,
      {
        split: 'train',
        sessions: 2,
        turns: 20,
        imageTurns: 1,
        qa: 3,
        failures: i === 0 ? { qa_evidence: 1 } : {},
        quarantined: i < (overrides.quarantinedUsers ?? 0),
      },
    ]),
  );
  return {
    manifest: {
      status: overrides.status ?? 'complete',
      pipeline: { name: 'fixture' },
      offline: { judge: true },
    },
    validation: {
      totals: { users: 10, quarantinedUsers: overrides.quarantinedUsers ?? 0 },
      rules: { qa_evidence: { description: 'evidence before the question', failures: 1, users: 1 } },
      fidelity: {
        unanswerable_qa: figure(overrides.fidelityOk === false ? 3 : 0, overrides.fidelityOk ?? true),
      },
    },
    validatedUsers: users,
    units: [],
    droppedQa: [],
    quarantine: [],
    examples: [
      { check: 'qa_evidence', userId: 'u0', location: 'qa-004', reason: 'evidence after the question' },
    ],
  };
}

describe('the run page collector', () => {
  it('says go for a complete run with its figures on target, and links the failed rule to its record', () => {
    const page = collectRunPage(facts());
    expect(page).toMatchObject({ name: 'fixture', verdict: 'go', reasons: [] });
    expect(page.alarms).toEqual([
      {
        check: 'qa_evidence',
        description: 'evidence before the question',
        failures: 1,
        users: 1,
        records: [{ userId: 'u0', location: 'qa-004', reason: 'evidence after the question' }],
      },
    ]);
    expect(page.fidelity[0]).toMatchObject({ name: 'unanswerable_qa', check: 'qa_evidence' });
  });

  it('says no-go, with the reason, for a figure off target, too many users quarantined or an unfinished run', () => {
    expect(collectRunPage(facts({ fidelityOk: false })).reasons).toEqual([
      'unanswerable_qa is 3%, target ≤ 0',
    ]);
    expect(collectRunPage(facts({ quarantinedUsers: 2 })).reasons).toEqual([
      '2 of 10 users quarantined (more than 10%)',
    ]);
    expect(collectRunPage(facts({ quarantinedUsers: 1 })).verdict).toBe('go');
    expect(collectRunPage(facts({ status: 'failed' }))).toMatchObject({
      verdict: 'no-go',
      reasons: ['the run is failed, not complete'],
    });
  });
});
