import { generateBuiltinPersonas } from '../../src/persona/builtin.js';
import { buildImagePool } from '../../src/plan/images/pool.js';
import { ImagesConfig } from '../../src/schemas/images-config.js';
import type { EnrichedPersona } from '../../src/schemas/persona.js';
import { PersonasConfig } from '../../src/schemas/personas-config.js';
import type { ImageRef } from '../../src/schemas/plan.js';
import { createRng } from '../../src/util/rng.js';

/** Offline-style enriched personas from the builtin generator (Big Five uniform 1–5). */
export function fixtureUsers(
  count: number,
  seed = 7,
): Array<{ userId: string; split: 'train' | 'test'; enriched: EnrichedPersona }> {
  const personas = generateBuiltinPersonas(count, seed, PersonasConfig.parse({}).builtin);
  return personas.map((persona, index) => {
    const rng = createRng(seed, 'fixture', index);
    const split = index % 3 === 2 ? 'test' : 'train';
    const bigFive = {
      openness: rng.int(1, 5),
      conscientiousness: rng.int(1, 5),
      extraversion: rng.int(1, 5),
      agreeableness: rng.int(1, 5),
      neuroticism: rng.int(1, 5),
    };
    return {
      userId: `${split}-${String(index).padStart(5, '0')}`,
      split,
      enriched: {
        persona,
        bigFive,
        roleDescription: `${persona.name}: ${persona.description}`,
        coreMemory: {
          human: { name: persona.name, age: String(persona.age) },
          persona: { identity: 'a personal assistant', roles: 'helper', interactionStyle: 'friendly' },
        },
        enrichedBy: 'offline',
      },
    };
  });
}

/** The built-in image pool metadata for tests (no PNGs rendered). */
export function fixtureImages(seed = 7, size = 120): ImageRef[] {
  return buildImagePool(ImagesConfig.parse({ size }), seed);
}
