import { describe, expect, it } from 'vitest';
import { GOALS, HABITS } from './catalogue/life-catalogue.js';
import { SLOTS_BY_CATEGORY } from './catalogue/preference-catalogue.js';
import { slotTopic, TOPIC_WORDS } from './topic-words.js';

const slots = [...SLOTS_BY_CATEGORY.values()].flat();
/** Lower case, hyphens and punctuation as spaces: "board-game night" says "board game". */
const plain = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;

describe('catalogue words', () => {
  it('names every slot with its own noun phrase ("beach holidays", not "beach")', () => {
    for (const slot of slots)
      expect(TOPIC_WORDS[slot.slot.split('.')[1] ?? slot.slot], slot.slot).toBeDefined();
    expect(slotTopic('travel.beach')).toBe('beach holidays');
    expect(slotTopic('travel.train@weekday')).toBe('train travel');
  });

  // A keyword the item does not say is tacked on by the realizer ("aged cheddar, especially cheese").
  it('gives each option, goal and habit keywords its own words say', () => {
    const said = [
      ...slots.flatMap((slot) => slot.options.map((o) => [o.item, o.keywords] as const)),
      ...GOALS.map((g) => [g.description, g.keywords] as const),
      ...HABITS.map((h) => [h.description, h.keywords] as const),
    ];
    for (const [text, keywords] of said)
      for (const keyword of keywords)
        expect(plain(text), `${text} / ${keyword}`).toContain(plain(keyword).trimEnd());
  });
});
