import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors/index.js';
import { SynthConfig } from '../../src/schemas/synth-config.js';
import { generateConceptConversation } from '../../src/synth/concepts/index.js';
import { sessionsForInsertion } from '../../src/synth/insert-sessions.js';
import { makePlanFixture } from '../support/plan-fixture.js';

const plan = makePlanFixture({ seed: 12, rounds: 60, sessionRounds: [8, 12] });

describe('sessionsForInsertion (--sessions <file-or-plan>)', () => {
  it('realizes a plan offline and keeps its image pool', async () => {
    const insert = await sessionsForInsertion(JSON.parse(JSON.stringify(plan)), { seed: 1, count: 2 });
    expect(insert.sessions).toHaveLength(2);
    expect(insert.images).toEqual(plan.images);
    expect(insert.sessions[0]!.turns[0]!.id).toBe(`${plan.userId}:S0:T0`);
  });

  it('takes the sessions of a dialogue, the first record of an array, or a plain {sessions}', async () => {
    const fromPlan = await sessionsForInsertion(plan, { seed: 1 });
    const dialogue = {
      schemaVersion: 1,
      userId: plan.userId,
      realizer: 'offline',
      offline: true,
      sessions: fromPlan.sessions,
      behaviors: [],
    };
    expect((await sessionsForInsertion([dialogue], { seed: 1, count: 1 })).sessions).toEqual(
      fromPlan.sessions.slice(0, 1),
    );
    const plain = await sessionsForInsertion(
      {
        sessions: fromPlan.sessions.slice(0, 2),
        qa: [{ question: 'q', answer: 'a', evidence: [], category: 4 }],
      },
      { seed: 1 },
    );
    expect(plain.qa).toHaveLength(1);
  });

  it('converts a concept conversation with its QA', async () => {
    const concepts = [0, 1, 2].map((c) => ({
      id: `c${c}`,
      name: `N${c}`,
      kind: 'pet',
      objectClass: 'dog',
      description: `dog ${c}`,
      imageIds: [`i${c}`],
    }));
    const times = [
      '2023-01-01T10:00:00.000Z',
      '2023-01-02T10:00:00.000Z',
      '2023-01-03T10:00:00.000Z',
      '2023-01-04T10:00:00.000Z',
      '2023-01-05T10:00:00.000Z',
    ];
    const conversation = await generateConceptConversation({ concepts, images: [], times, seed: 1 });
    const insert = await sessionsForInsertion(conversation, { seed: 1 });
    expect(insert.sessions).toHaveLength(5);
    expect(insert.qa).toHaveLength(SynthConfig.parse({}).concepts.qaTotal);
    expect(insert.sessions[0]!.turns[0]!.text).toContain('<image>');
  });

  it('rejects anything else with an InputError', async () => {
    await expect(sessionsForInsertion({ hello: 1 }, { seed: 1 })).rejects.toBeInstanceOf(InputError);
  });
});
