import { describe, expect, it } from 'vitest';
import type { UserDialogue } from '../../schemas/dialogue.js';
import { describeBehavior, interactionsBetween } from './interactions.js';

const t = (minute: number) => new Date(Date.UTC(2024, 0, 1, 8, minute)).toISOString();
const dialogue: UserDialogue = {
  schemaVersion: 1,
  userId: 'u',
  realizer: 'offline',
  offline: true,
  sessions: [
    {
      index: 0,
      start: t(0),
      end: t(3),
      topics: ['food'],
      turns: [
        {
          id: 'u:S0:T0',
          index: 0,
          round: 0,
          time: t(0),
          speaker: 'user',
          text: 'I love ramen',
          images: [],
          slots: [],
          noise: null,
        },
        {
          id: 'u:S0:T1',
          index: 1,
          round: 0,
          time: t(3),
          speaker: 'assistant',
          text: 'Noted!',
          images: [],
          slots: [],
          noise: null,
        },
      ],
    },
  ],
  behaviors: [
    {
      id: 'b1',
      time: t(2),
      type: 'order',
      scenario: 'delivery',
      merchant: 'Noodle Bar',
      items: [{ name: 'ramen', price: 38, quantity: 2 }],
      keyword: null,
      tags: [],
      rating: 5,
      text: null,
      preferenceId: null,
      noise: null,
    },
  ],
};

describe('VitaBench interactions', () => {
  it('merges dialogue turns and behavior events in time order inside (from, to]', () => {
    const all = interactionsBetween(dialogue, null, null);
    expect(all.map((item) => item.kind)).toEqual(['dialogue', 'behavior', 'dialogue']);
    expect(interactionsBetween(dialogue, t(0), t(2)).map((item) => item.time)).toEqual([t(2)]);
  });

  it('renders a behavior event as one line', () => {
    expect(describeBehavior(dialogue.behaviors[0]!)).toBe(
      'order in delivery at Noodle Bar; ramen ×2 (38); rated 5',
    );
  });
});
