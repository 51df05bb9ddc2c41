import type { Persona } from '../schemas/persona.js';
import type { BuiltinPersonasConfig } from '../schemas/personas-config.js';
import { createRng, type Rng } from '../util/rng.js';
import {
  citiesOf,
  drawGender,
  drawPlace,
  drawWork,
  educationsFor,
  familiesFor,
  GENDERS,
  interestsFor,
  lifeStageOf,
  occupationTitle,
  REGION_TIERS,
  type RegionTier,
  tierWeights,
  workOptionsFor,
} from './attributes.js';
import { describePersona } from './describe.js';
import { createNameRegistry, type NameRegistry } from './name-registry.js';
import { COUNTRIES } from './tables/places.js';

/**
 * Draws one builtin persona: age first, then a place, then work, schooling and family that fit
 * the age (a 19-year-old is never a retired surgeon with grandchildren), then interests and a
 * one-line description. The name is unique within `names`.
 *
 * @example
 * const persona = drawBuiltinPersona(createRng(7, 'p0'), config.builtin, createNameRegistry(), 'builtin-0');
 */
export function drawBuiltinPersona(
  rng: Rng,
  config: BuiltinPersonasConfig,
  names: NameRegistry,
  id: string,
): Persona {
  const age = rng.int(config.minAge, config.maxAge);
  const gender = drawGender(rng, config);
  const tier = REGION_TIERS[rng.weightedIndex(tierWeights(config))] as RegionTier;
  const { country, city } = drawPlace(rng, tier);
  const work = drawWork(rng, age, tier, config);
  const education = rng.pick(educationsFor(work, age));
  const family = rng.pick(familiesFor(work, age));
  const [minInterests, maxInterests] = config.interests;
  const interests = rng.sample(interestsFor(age), rng.int(minInterests, maxInterests));
  const occupation = occupationTitle(work);
  // Naming culture drawn from the country's residents, most common listed more often.
  const culture = rng.pick(country.cultures);
  const name = names.draw(rng, [culture, ...country.cultures], gender);
  return {
    id,
    source: 'builtin',
    description: describePersona(rng, {
      age,
      occupation,
      city,
      country: country.name,
      family: family.text,
      interests,
    }),
    name,
    age,
    gender,
    occupation,
    location: { city, country: country.name, regionTier: tier },
    family: family.text,
    lifeStage: lifeStageOf(work, age, family),
    education,
    interests: interests.map((interest) => interest.name),
  };
}

/**
 * Generates `count` builtin personas with unique names; persona `i` draws from its own stream
 * (`seed`, 'builtin', i), so the first personas do not change when `count` grows.
 *
 * @example
 * const personas = generateBuiltinPersonas(700, 42, PersonasConfig.parse({}).builtin);
 */
export function generateBuiltinPersonas(
  count: number,
  seed: number,
  config: BuiltinPersonasConfig,
): Persona[] {
  const names = createNameRegistry();
  const out: Persona[] = [];
  for (let index = 0; index < count; index++) {
    out.push(drawBuiltinPersona(createRng(seed, 'builtin', index), config, names, `builtin-${index}`));
  }
  return out;
}

/**
 * Counts the distinct (gender, age, place, work, education, family) combinations the generator
 * can produce, using the same consistency rules; interests (C(n, 2..4) more) are not counted.
 *
 * @example countBuiltinCombinations(PersonasConfig.parse({}).builtin) // > 100_000
 */
export function countBuiltinCombinations(config: BuiltinPersonasConfig): number {
  let total = 0;
  for (const tier of REGION_TIERS) {
    if (config.regionTiers[tier] <= 0) continue;
    const cities = COUNTRIES.reduce((sum, country) => sum + citiesOf(country, tier).length, 0);
    for (let age = config.minAge; age <= config.maxAge; age++) {
      for (const work of workOptionsFor(age, tier, config)) {
        total += educationsFor(work, age).length * familiesFor(work, age).length * cities * GENDERS.length;
      }
    }
  }
  return total;
}
