/**
 * VitaBench subtasks about a diet (issue 27, item 3): the diets' dish lists name catalogue items,
 * so the planner (a vegetarian never likes a meat dish) and the task builder (which dishes a diet
 * asks for or rules out) find them by name; and an agent that knows the user's high-protein diet
 * finds exactly one store with a protein-rich dish, read from the offers as a person reads a menu
 * (a dish whose name contains a protein-rich one is protein-rich), not from the builder's lists.
 */
import { describe, expect, it } from 'vitest';
import { designCandidates } from '../../src/export/systems/vita-candidates.js';
import { DIET_FACTS } from '../../src/plan/catalogue/diet-facts.js';
import { PREFERENCE_CATALOGUE } from '../../src/plan/catalogue/preference-catalogue.js';
import { dietConflict, MEAT_DISHES } from '../../src/plan/preference-pool.js';
import type { Preference } from '../../src/schemas/plan.js';
import { createRng } from '../../src/util/rng.js';
import { fixtureUsers } from '../plan/fixtures.js';

const items = new Set(PREFERENCE_CATALOGUE.flatMap((spec) => spec.options.map((o) => o.item)));
const T = '2024-03-01T10:00:00.000Z';
const pref = (id: string, item: string, slot: string, polarity: 'like' | 'dislike' = 'like'): Preference => ({
  id,
  category: 'food',
  slot,
  item,
  polarity,
  keywords: [item],
  validFrom: T,
  validUntil: null,
  origin: 'initial',
  condition: null,
});

describe('diet facts', () => {
  it('name only catalogue items', () => {
    const named = [...MEAT_DISHES, ...DIET_FACTS.flatMap((d) => [...d.rulesOut, ...d.asksFor])];
    expect(named.filter((item) => !items.has(item))).toEqual([]);
  });

  it('keep a vegetarian from liking any meat dish of the catalogue, Indian butter chicken included', () => {
    const vegetarian = [{ item: 'a vegetarian diet', polarity: 'like' as const }];
    expect(dietConflict({ item: 'Indian butter chicken', polarity: 'like' }, vegetarian)).toBe(true);
  });

  it('give a high-protein eater one store with a protein-rich dish among the candidates', () => {
    const protein = [...DIET_FACTS.find((d) => d.diet === 'a high-protein diet')!.asksFor].map((d) =>
      d.toLowerCase(),
    );
    const focal = pref('p-diet', 'a high-protein diet', 'food.diet');
    const misses: string[] = [];
    let designs = 0;
    for (const [u, user] of fixtureUsers(12, 3).entries()) {
      for (let seed = 0; seed < 25; seed++) {
        const design = designCandidates({
          persona: user.enriched.persona,
          focal,
          active: [focal],
          outdated: [],
          size: 4,
          rng: createRng(seed, 'diet', u),
        });
        designs++;
        const rich = design.offers.map((offer) =>
          offer.some((dish) => protein.some((p) => dish.toLowerCase().includes(p))),
        );
        if (rich.filter(Boolean).length !== 1 || !rich[design.expected])
          misses.push(design.offers.map((o) => o.join('+')).join(' | '));
      }
    }
    expect(designs).toBe(300);
    expect(misses).toEqual([]);
  });
});
