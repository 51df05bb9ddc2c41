/**
 * Small text helpers of the offline realizer: keep keywords verbatim, and turn a plan's
 * third-person statement ("The user swims laps before work.") into the user's own voice.
 */

/**
 * Returns `phrase` with every keyword present (in any case): missing ones are appended as
 * "…, especially k1 and k2".
 *
 * @example withKeywords('spicy food', ['hotpot']) // 'spicy food, especially hotpot'
 */
export function withKeywords(phrase: string, keywords: readonly string[]): string {
  // Keywords match case-insensitively (src/synth/check.ts): the phrase keeps its own spelling,
  // so "every Sunday" stays capitalised for the keyword "sunday".
  const lower = phrase.toLowerCase();
  const missing = keywords.filter((keyword) => !lower.includes(keyword.toLowerCase()));
  if (missing.length === 0) return phrase;
  if (phrase.trim() === '') return missing.join(' and ');
  return `${phrase}, especially ${missing.join(' and ')}`;
}

/** Relations whose pronoun English fixes; for the others the person's name stands in. */
const PRONOUNS: Readonly<Record<string, { subject: string; object: string; possessive: string }>> = {
  mother: { subject: 'she', object: 'her', possessive: 'her' },
  sister: { subject: 'she', object: 'her', possessive: 'her' },
  father: { subject: 'he', object: 'him', possessive: 'his' },
  brother: { subject: 'he', object: 'him', possessive: 'his' },
};

/**
 * A note about a person, already in the user's voice ("they helped me through a hard week"), with
 * "they/them/their" said as that person: the relation's pronoun, else the person's name.
 *
 * @example aboutPerson('they helped me through a hard week', 'brother', 'Leo') // 'he helped me through a hard week'
 */
export function aboutPerson(note: string, relation: string, name: string): string {
  const pronoun = PRONOUNS[relation];
  return note
    .trim()
    .replace(/[.!]+$/, '')
    .replace(/\bthey\b/gi, pronoun?.subject ?? name)
    .replace(/\bthem\b/gi, pronoun?.object ?? name)
    .replace(/\btheir\b/gi, pronoun?.possessive ?? `${name}'s`);
}

const IRREGULAR: Readonly<Record<string, string>> = {
  has: 'have',
  does: 'do',
  goes: 'go',
  is: 'am',
  was: 'was',
};

/** Third person singular verb → base form (swims → swim, watches → watch, tries → try). */
function baseVerb(verb: string): string {
  const irregular = IRREGULAR[verb];
  if (irregular !== undefined) return irregular;
  if (/(ch|sh|ss|x|z|o)es$/.test(verb)) return verb.slice(0, -2);
  if (/[^aeiou]ies$/.test(verb)) return `${verb.slice(0, -3)}y`;
  if (/[^s]s$/.test(verb)) return verb.slice(0, -1);
  return verb;
}

/**
 * Rewrites a third-person plan statement in the first person. Heuristic: handles "The user …",
 * "The user's …", their/them/they, and a leading verb phrase ("swims laps …").
 *
 * @example firstPerson('The user works night shifts on Fridays.') // 'I work night shifts on Fridays'
 */
export function firstPerson(statement: string): string {
  let text = statement.trim().replace(/[.!]+$/, '');
  text = text.replace(/^the user's\b/i, 'my').replace(/\bthe user's\b/gi, 'my');
  const lead = /^the user\s+(\w+)/i.exec(text);
  if (lead !== null) text = `I ${baseVerb(lead[1]!.toLowerCase())}${text.slice(lead[0].length)}`;
  else if (/^[a-z-]+s\b/.test(text))
    text = `I ${baseVerb(text.split(' ')[0]!)}${text.slice(text.indexOf(' ') >= 0 ? text.indexOf(' ') : text.length)}`;
  text = text
    .replace(/\bthe user\b/gi, 'me')
    .replace(/\btheir\b/g, 'my')
    .replace(/\bthemselves\b/g, 'myself')
    .replace(/\bthem\b/g, 'me')
    .replace(/\bthey\b/g, 'I');
  return text;
}

const PREPOSITIONS = new Set([
  'with',
  'of',
  'for',
  'on',
  'in',
  'at',
  'from',
  'without',
  'by',
  'before',
  'after',
]);

/** Plural heads an "-ing" word only classifies: things, not the object of an activity. */
const KIND_HEADS = new Set([
  'trips',
  'shoes',
  'shows',
  'classes',
  'tours',
  'sessions',
  'holidays',
  'nights',
  'lessons',
  'clubs',
  'boots',
]);

/**
 * Whether a noun phrase is plural, read from its head noun (the last word before a preposition):
 * "city breaks with museums" is, "dim sum" and "collecting vinyl records" (an activity) are not.
 * Templates say "{kwItem} {is} not for me" with the verb this picks.
 *
 * @example isPlural('city breaks with museums') // true
 */
export function isPlural(phrase: string): boolean {
  const words = phrase
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const cut = words.findIndex((word, i) => i > 0 && PREPOSITIONS.has(word));
  const head = (cut > 0 ? words.slice(0, cut) : words).at(-1) ?? '';
  // "-ing" first names an activity ("swimming laps"), unless it only says what kind of thing
  // the head is ("hiking trips", "running shoes", "cooking competition shows").
  if (/ing$/.test(words[0] ?? '') && !KIND_HEADS.has(head)) return false;
  return /[^su']s$/.test(head) && !/(?:ss|us|is|news|series)$/.test(head);
}

/** The verbs that agree with an item as subject: `{is}`, `{does}`, `{gets}`, `{sounds}`. */
export function agreement(item: string): { is: string; does: string; gets: string; sounds: string } {
  return isPlural(item)
    ? { is: 'are', does: 'do', gets: 'get', sounds: 'sound' }
    : { is: 'is', does: 'does', gets: 'gets', sounds: 'sounds' };
}
