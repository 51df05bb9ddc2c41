import { describe, expect, it } from 'vitest';
import type { Persona } from '../schemas/persona.js';
import { resolvePlanSettings } from '../schemas/plan-config.js';
import { createRng } from '../util/rng.js';
import { PREFERENCE_CATALOGUE } from './catalogue/preference-catalogue.js';
import { baseSlot, createPreferencePool, fitsPersona, hasChildrenAtHome } from './preference-pool.js';

const persona: Persona = {
  id: 'p1',
  source: 'builtin',
  description: 'A retired teacher who loves gardening and jazz',
  name: 'Ada Lin',
  age: 70,
  gender: 'female',
  occupation: 'retired teacher',
  location: { city: 'Leeds', country: 'UK', regionTier: 'tier3' },
  family: 'married, the children have left home',
  lifeStage: 'retired',
  education: "bachelor's degree",
  interests: ['gardening', 'jazz'],
};

describe('preference pool', () => {
  it.each([
    ['married with a toddler', true],
    ['married, no children', false],
    ['married, the children have left home', false],
    ['widowed, close to the grandchildren', false],
    ['divorced, co-parenting a ten-year-old', true],
    ['single, lives alone', false],
  ])('hasChildrenAtHome(%j) is %s', (family, expected) => {
    expect(hasChildrenAtHome(family)).toBe(expected);
  });

  it('keeps slots that do not fit the persona out (kids, age, city tier)', () => {
    const fitting = PREFERENCE_CATALOGUE.filter((spec) => fitsPersona(spec, persona)).map(
      (spec) => spec.slot,
    );
    expect(fitting).not.toContain('shopping.toys');
    expect(fitting).not.toContain('entertainment.nightlife');
    expect(fitting).not.toContain('shopping.luxury');
    expect(fitting).toContain('entertainment.opera');
  });

  it('draws distinct slots, favouring the persona’s interests', () => {
    const pool = createPreferencePool(persona, resolvePlanSettings({}));
    const rng = createRng(3);
    const taken = new Map<string, unknown>();
    for (let i = 0; i < 40; i++) {
      const choice = pool.draw(rng, taken);
      if (choice === null) break;
      expect(taken.has(baseSlot(choice.slot))).toBe(false);
      taken.set(baseSlot(choice.slot), choice);
    }
    expect(taken.size).toBe(40);
    // Interest-tagged slots (gardening, music) are drawn more often than untagged ones across seeds.
    let tagged = 0;
    for (let seed = 0; seed < 200; seed++) {
      const choice = pool.draw(createRng(seed), new Map());
      if (choice?.spec.tags.some((tag) => ['gardening', 'music', 'jazz'].includes(tag))) tagged++;
    }
    expect(tagged).toBeGreaterThan(10);
  });
});
