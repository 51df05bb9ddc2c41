import type { Rng } from '../util/rng.js';
import type { Interest } from './tables/lifestyle.js';

/** The parts a PersonaHub-style one-line description is written from. */
export interface DescriptionParts {
  age: number;
  occupation: string;
  city: string;
  country: string;
  family: string;
  interests: readonly Interest[];
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** "from Lyon, France" or "from a village in Provence, France". */
function place(parts: DescriptionParts): string {
  return `${parts.city}, ${parts.country}`;
}

function joinPhrases(phrases: readonly string[]): string {
  if (phrases.length <= 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
}

/** Templates in the terse third-person style of PersonaHub ("A retired nurse who…"). */
const TEMPLATES: ReadonlyArray<(parts: DescriptionParts) => string> = [
  (p) => {
    const lead = `${p.age}-year-old ${p.occupation}`;
    return `${capital(article(lead))} ${lead} from ${place(p)} who ${joinPhrases(p.interests.slice(0, 2).map((x) => x.phrase))}.`;
  },
  (p) =>
    `${capital(article(p.occupation))} ${p.occupation} in ${place(p)} (${p.family}) with a passion for ${joinPhrases(p.interests.map((x) => x.name))}.`,
  (p) =>
    `${capital(article(p.occupation))} ${p.occupation} based in ${place(p)}, ${p.age} years old, who ${p.interests[0]?.phrase ?? 'enjoys quiet evenings'}.`,
  (p) =>
    `${capital(article(p.occupation))} ${p.occupation} living in ${place(p)}; ${p.family}; spends free time on ${joinPhrases(p.interests.map((x) => x.name))}.`,
];

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Writes a one-line persona description.
 *
 * @example
 * describePersona(rng, { age: 67, occupation: 'retired surgeon', city: 'Lyon', country: 'France', family: 'widowed', interests });
 * // "A 67-year-old retired surgeon from Lyon, France who paints watercolour landscapes."
 */
export function describePersona(rng: Rng, parts: DescriptionParts): string {
  return rng.pick(TEMPLATES)(parts);
}
