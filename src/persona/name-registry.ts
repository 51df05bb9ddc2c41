import type { Rng } from '../util/rng.js';
import type { Gender } from './attributes.js';
import { NAME_CULTURES, type NameCulture, type NameCultureId } from './tables/names.js';

/** Tries per culture before moving to the next culture of the country. */
const TRIES_PER_CULTURE = 40;

/**
 * Hands out full names that are unique within one run. Names come from the country's naming
 * cultures (most common first); when a culture is crowded the next one is tried, and as a last
 * resort a middle initial keeps the name unique rather than repeating it.
 *
 * @example
 * const names = createNameRegistry();
 * names.draw(rng, ['anglo'], 'female'); // "Grace Turner"
 */
export interface NameRegistry {
  draw(rng: Rng, cultures: readonly NameCultureId[], gender: Gender): string;
  /** Reserves a name that came from the input file; false when it was already taken. */
  reserve(name: string): boolean;
  has(name: string): boolean;
  readonly size: number;
}

function firstNames(culture: NameCulture, gender: Gender): readonly string[] {
  if (gender === 'female') return culture.women;
  if (gender === 'male') return culture.men;
  return culture.unisex;
}

function format(culture: NameCulture, given: string, family: string): string {
  return culture.familyFirst ? `${family} ${given}` : `${given} ${family}`;
}

export function createNameRegistry(): NameRegistry {
  const taken = new Set<string>();
  return {
    draw(rng, cultures, gender) {
      const order = [...new Set(cultures)];
      for (const id of order) {
        const culture: NameCulture = NAME_CULTURES[id];
        for (let attempt = 0; attempt < TRIES_PER_CULTURE; attempt++) {
          const name = format(culture, rng.pick(firstNames(culture, gender)), rng.pick(culture.family));
          if (!taken.has(name)) {
            taken.add(name);
            return name;
          }
        }
      }
      const culture: NameCulture = NAME_CULTURES[order[0] ?? 'anglo'];
      const letters = 'ABCDEFGHJKLMNPRSTVW';
      // Bounded: after the initials run out, a numeric suffix is always free.
      for (let attempt = 0; ; attempt++) {
        const initial = attempt < 10_000 ? rng.pick(letters.split('')) : String(attempt);
        const given = `${rng.pick(firstNames(culture, gender))} ${initial}.`;
        const name = format(culture, given, rng.pick(culture.family));
        if (!taken.has(name)) {
          taken.add(name);
          return name;
        }
      }
    },
    reserve(name) {
      if (taken.has(name)) return false;
      taken.add(name);
      return true;
    },
    has: (name) => taken.has(name),
    get size() {
      return taken.size;
    },
  };
}
