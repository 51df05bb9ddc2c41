/**
 * Persona facts (education, work, family, city) in the user's own voice. The plan states them in
 * the third person with the user's name ("Cao Kai's education: …"); a user never names
 * themselves or reads out a profile label.
 */
import type { Persona } from '../../schemas/persona.js';
import type { Rng } from '../../util/rng.js';

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/** "lives with parents" → "I live with parents"; "married, no children" → "I am married, no children". */
export function familyInFirstPerson(family: string): string {
  const verb = /^(lives|shares|cares)\b/.exec(family);
  const text =
    verb !== null
      ? `I ${verb[1]!.slice(0, -1)}${family.slice(verb[1]!.length)}`
      : `I am ${/^grandparent\b/.test(family) ? 'a ' : ''}${family}`;
  return text.replace(/, lives\b/g, ', and I live');
}

/** The fact a `fact.*` slot states, in the first person; null for other slots. */
export function factInFirstPerson(refId: string, persona: Persona, rng: Rng): string | null {
  switch (refId) {
    case 'fact.education': {
      // A degree is counted ("a master's degree", "a doctorate"); training and schooling are not.
      const level = /^(bachelor|master|doctor|associate|diploma|phd)/i.test(persona.education)
        ? `${article(persona.education)} ${persona.education}`
        : persona.education;
      return rng.pick([
        `my highest qualification is ${level}`,
        `school-wise, where I got to is ${level}`,
        `in terms of education, mine is ${level}`,
      ]);
    }
    case 'fact.occupation': {
      const job = persona.occupation;
      if (/^retired\b|student\b/i.test(job)) return `I am ${article(job)} ${job}`;
      return rng.pick([`I work as ${article(job)} ${job}`, `my job? I am ${article(job)} ${job}`]);
    }
    case 'fact.family':
      return familyInFirstPerson(persona.family);
    case 'fact.location':
      return rng.pick([`I live in ${persona.location.city}`, `home for me is ${persona.location.city}`]);
    default:
      return null;
  }
}

/** Replaces the user's own name in a third-person statement so `firstPerson` can voice it. */
export function withoutOwnName(statement: string, fullName: string): string {
  if (fullName.trim() === '') return statement;
  return statement.replaceAll(`${fullName}'s`, "the user's").replaceAll(fullName, 'the user');
}
