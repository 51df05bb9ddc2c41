import { describe, expect, it } from 'vitest';
import { Persona } from '../schemas/persona.js';
import { PersonasConfig } from '../schemas/personas-config.js';
import { createRng } from '../util/rng.js';
import { educationsFor, familiesFor, REGION_TIERS, workOptionsFor } from './attributes.js';
import { countBuiltinCombinations, drawBuiltinPersona, generateBuiltinPersonas } from './builtin.js';
import { createNameRegistry } from './name-registry.js';
import { OCCUPATIONS } from './tables/occupations.js';

const config = PersonasConfig.parse({}).builtin;

describe('builtin persona generator', () => {
  it('can produce at least 100,000 distinct attribute combinations (counted from the rules)', () => {
    expect(countBuiltinCombinations(config)).toBeGreaterThanOrEqual(100_000);
  });

  it('produces at least 100,000 distinct personas (counted over real draws, names excluded)', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 105_000; index++) {
      const p = drawBuiltinPersona(createRng(3, 'diversity', index), config, createNameRegistry(), 'x');
      seen.add(
        [
          p.age,
          p.gender,
          p.occupation,
          p.location.city,
          p.family,
          p.education,
          [...p.interests].sort().join('|'),
        ].join('/'),
      );
    }
    expect(seen.size).toBeGreaterThanOrEqual(100_000);
  });

  it('never repeats a name within a run of 1,000 users', () => {
    const personas = generateBuiltinPersonas(1_000, 11, config);
    expect(new Set(personas.map((p) => p.name)).size).toBe(1_000);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateBuiltinPersonas(50, 5, config)).toEqual(generateBuiltinPersonas(50, 5, config));
    expect(generateBuiltinPersonas(50, 5, config)).not.toEqual(generateBuiltinPersonas(50, 6, config));
  });

  it('keeps attributes consistent with age across 5,000 personas', () => {
    const personas = generateBuiltinPersonas(5_000, 21, config);
    for (const p of personas) {
      Persona.parse(p);
      expect(p.age).toBeGreaterThanOrEqual(config.minAge);
      expect(p.age).toBeLessThanOrEqual(config.maxAge);
      const retired = p.occupation.startsWith('retired ');
      if (retired) expect(p.age).toBeGreaterThanOrEqual(config.retirementAge);
      else {
        const job = OCCUPATIONS.find((o) => o.title === p.occupation);
        expect(job, p.occupation).toBeDefined();
        expect(p.age).toBeGreaterThanOrEqual(job?.minAge ?? 0);
        expect(p.age).toBeLessThanOrEqual(job?.maxAge ?? 0);
      }
      if (/grandparent|grandchildren/.test(p.family)) expect(p.age).toBeGreaterThanOrEqual(52);
      if (/doctorate$/.test(p.education)) expect(p.age).toBeGreaterThanOrEqual(27);
      if (/^master's degree$/.test(p.education)) expect(p.age).toBeGreaterThanOrEqual(23);
      if (p.lifeStage === 'retired') expect(retired).toBe(true);
      expect(p.interests.length).toBeGreaterThanOrEqual(config.interests[0]);
      expect(new Set(p.interests).size).toBe(p.interests.length);
      expect(p.description).toContain(p.location.city);
    }
    // The mix really covers the age range: young students and retirees both occur.
    expect(personas.some((p) => p.age < 25 && p.lifeStage === 'student')).toBe(true);
    expect(personas.some((p) => p.lifeStage === 'retired')).toBe(true);
  });

  it('has a family situation and an education for every age 14..100 and every job that fits it', () => {
    const wide = PersonasConfig.parse({ builtin: { minAge: 14, maxAge: 100 } }).builtin;
    for (const tier of REGION_TIERS) {
      for (let age = 14; age <= 100; age++) {
        for (const work of workOptionsFor(age, tier, wide)) {
          expect(familiesFor(work, age).length, `${age} ${work.occupation.title}`).toBeGreaterThan(0);
          expect(educationsFor(work, age).length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('honours the region-tier weights', () => {
    const rural = PersonasConfig.parse({
      builtin: { regionTiers: { tier1: 0, tier2: 0, tier3: 0, rural: 1 } },
    }).builtin;
    const personas = generateBuiltinPersonas(200, 1, rural);
    expect(personas.every((p) => p.location.regionTier === 'rural')).toBe(true);
    // Urban-only jobs never appear in the countryside.
    expect(personas.some((p) => p.occupation === 'investment banker')).toBe(false);
  });
});
