import type { Persona } from '../schemas/persona.js';
import type { Preference } from '../schemas/plan.js';

/** Adjectives a personality-shift turn uses (one per trait and direction). */
export const TRAIT_WORDS: Record<string, { up: string; down: string }> = {
  openness: { up: 'curious', down: 'set in my ways' },
  conscientiousness: { up: 'organized', down: 'scattered' },
  extraversion: { up: 'outgoing', down: 'quiet' },
  agreeableness: { up: 'patient', down: 'irritable' },
  neuroticism: { up: 'anxious', down: 'calm' },
};

/** "likes spicy Sichuan hotpot when I am stressed". */
export function describePreference(preference: Pick<Preference, 'polarity' | 'item' | 'condition'>): string {
  const verb = preference.polarity === 'like' ? 'likes' : 'dislikes';
  const when = preference.condition === null ? '' : ` ${preference.condition.when}`;
  return `${verb} ${preference.item}${when}`;
}

/** Short answer text for a preference: "Likes oat milk lattes". */
export function preferenceAnswer(preference: Pick<Preference, 'polarity' | 'item' | 'condition'>): string {
  const text = describePreference(preference);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');
let cachedDay = Number.NaN;
let cachedPrefix = '';

/**
 * ISO time of epoch milliseconds, identical to `new Date(ms).toISOString()`. Plans format
 * hundreds of round times per user, mostly on the same few days, so the date part is cached.
 *
 * @example iso(0) // '1970-01-01T00:00:00.000Z'
 */
export function iso(ms: number): string {
  const day = Math.floor(ms / 86_400_000) * 86_400_000;
  if (day !== cachedDay || ms < 0) {
    if (ms < 0) return new Date(ms).toISOString();
    cachedDay = day;
    cachedPrefix = new Date(day).toISOString().slice(0, 11);
  }
  let rest = ms - day;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${cachedPrefix}${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(rest - seconds * 1000, 3)}Z`;
}

/** Zero-padded id: `prefix-007`. */
export function makeId(prefix: string, index: number): string {
  return `${prefix}-${String(index).padStart(3, '0')}`;
}

/** What a drift round says: "Mia used to like X but now likes Y (cause)". */
export function driftStatement(
  name: string,
  previous: Preference | null,
  next: Preference | null,
  cause: string,
): string {
  if (previous === null && next !== null) return `${name} now ${describePreference(next)} (${cause})`;
  if (previous !== null && next !== null) {
    return `${name} used to ${previous.polarity} ${previous.item} but now ${describePreference(next)} (${cause})`;
  }
  return `${name} no longer ${previous === null ? 'cares' : describePreference(previous)} (${cause})`;
}

/** The short word of a family description a realized turn must contain ("married", "roommates"). */
function familyKeyword(family: string): string {
  const match =
    /married|single|divorced|widowed|partner|roommates|parents|grandparent|relationship|parent/i.exec(family);
  return match?.[0] ?? family.split(/[ ,]/)[0] ?? family;
}

/**
 * Persona facts the dialogue states, in the order they are used: education first (tiered
 * explanations depend on it), then occupation, family and location. Keywords are short so a
 * realized turn can contain them naturally.
 */
/** The indefinite article of a noun phrase. */
const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

export function personaFacts(persona: Persona): Array<{ refId: string; statement: string; keyword: string }> {
  const name = persona.name;
  return [
    {
      refId: 'fact.education',
      statement: `${name}'s education: ${persona.education}`,
      keyword: persona.education.replace(/\s*\(.*\)$/, ''),
    },
    {
      refId: 'fact.occupation',
      statement: /^retired\b|\bstudent\b/i.test(persona.occupation)
        ? `${name} is ${article(persona.occupation)} ${persona.occupation}`
        : `${name} works as ${article(persona.occupation)} ${persona.occupation}`,
      keyword: persona.occupation.split(' in ')[0] ?? persona.occupation,
    },
    {
      refId: 'fact.family',
      statement: `${name}'s family: ${persona.family}`,
      keyword: familyKeyword(persona.family),
    },
    {
      refId: 'fact.location',
      statement: `${name} lives in ${persona.location.city}`,
      keyword: persona.location.city,
    },
  ];
}
