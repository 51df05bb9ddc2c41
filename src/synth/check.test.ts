import { describe, expect, it } from 'vitest';
import type { EvidenceSlot } from '../schemas/plan.js';
import { checkChunkSlots, lexicalSlotCheck } from './check.js';
import { slotExpectations } from './meaning.js';

const slot = (keywords: string[]): EvidenceSlot => ({
  id: 's1',
  kind: 'preference',
  refId: 'p1',
  sessionIndex: 0,
  round: 0,
  time: '2024-01-01T00:00:00.000Z',
  statement: 'likes hotpot',
  keywords,
  imageId: null,
});

describe('lexicalSlotCheck', () => {
  it.each([
    [['Sichuan', 'hotpot'], 'I love sichuan HOTPOT', 'expressed'],
    [['Sichuan', 'hotpot'], 'I love hotpot', 'unsure'],
    [['Sichuan', 'hotpot', 'broth', 'chili'], 'I love hotpot', 'missing'],
    [['hotpot'], 'I love noodles', 'missing'],
  ])('%j in "%s" → %s', (keywords, text, status) => {
    expect(lexicalSlotCheck(slot(keywords), text, 0.5).status).toBe(status);
  });
});

describe('checkChunkSlots', () => {
  it('counts unsure slots as missing without a judge', async () => {
    const result = await checkChunkSlots([{ slots: [slot(['Sichuan', 'hotpot'])], user: 'hotpot tonight' }], {
      unsureFraction: 0.5,
    });
    expect(result).toMatchObject({ missing: [slot(['Sichuan', 'hotpot'])], judgeCalls: 0 });
    expect(result.reasons.get('s1')).toMatch(/^must say .* \(naming "Sichuan"\)$/);
  });

  it('regenerates a slot whose keywords are present but whose meaning contradicts the plan', async () => {
    const plan = {
      drift: [],
      preferences: [
        {
          id: 'p1',
          category: 'food' as const,
          slot: 'spicy',
          item: 'Sichuan hotpot',
          polarity: 'dislike' as const,
          keywords: ['hotpot'],
          validFrom: '2024-01-01T00:00:00.000Z',
          validUntil: null,
          origin: 'initial' as const,
          condition: null,
        },
      ],
    };
    const options = {
      unsureFraction: 0.5,
      meaning: (s: EvidenceSlot) => ({ expectations: slotExpectations(plan, s), cause: null }),
    };
    const wrong = await checkChunkSlots(
      [{ slots: [slot(['hotpot'])], user: 'I adore Sichuan hotpot' }],
      options,
    );
    expect(wrong.missing).toEqual([slot(['hotpot'])]);
    expect(wrong.reasons.get('s1')).toBe(
      'must say the user dislikes Sichuan hotpot: it says the opposite ("I adore Sichuan hotpot")',
    );
    const right = await checkChunkSlots(
      [{ slots: [slot(['hotpot'])], user: 'I cannot stand Sichuan hotpot' }],
      options,
    );
    expect(right.missing).toEqual([]);
  });
});
