import type { Gender, RegionTier } from './attributes.js';
import { REGION_TIERS } from './attributes.js';
import { INTERESTS, type Interest } from './tables/lifestyle.js';
import type { Occupation } from './tables/occupations.js';
import { OCCUPATIONS } from './tables/occupations.js';
import { COUNTRIES, type Country } from './tables/places.js';

/**
 * Cheap reading of a free-text persona description, so attributes filled from the builtin
 * tables agree with it ("A retired nurse from Lyon who…" → retired, nurse, Lyon, France).
 * Keyword matching only: anything not recognised is left for the seeded draw.
 */
const FEMALE =
  /\b(she|her|hers|woman|women|mother|mom|mum|wife|girl|grandmother|daughter|sister|actress|businesswoman|housewife|lady)\b/i;
const MALE =
  /\b(he|his|him|man|men|father|dad|husband|boy|grandfather|son|brother|actor|businessman|gentleman)\b/i;

export function inferGender(description: string): Gender | undefined {
  const female = FEMALE.test(description);
  const male = MALE.test(description);
  if (female === male) return undefined;
  return female ? 'female' : 'male';
}

/** Whether the text says the person has children or grandchildren. */
export function inferFamilyHint(description: string): 'parent' | 'grandparent' | undefined {
  if (/\bgrand(mother|father|parent|ma|pa)s?\b|\bgrandchild(ren)?\b/i.test(description)) return 'grandparent';
  if (/\b(mother|father|mom|mum|dad|parent)s?\b|\b(son|daughter|children|kids)\b/i.test(description))
    return 'parent';
  return undefined;
}

/** An age stated in the text: "a 31 year old", "aged 45", "45-year-old". */
export function inferAge(description: string): number | undefined {
  const match = /\b(\d{2})[ -]years?[ -]old\b|\baged (\d{2})\b/i.exec(description);
  const age = Number(match?.[1] ?? match?.[2]);
  return Number.isInteger(age) && age >= 14 && age <= 100 ? age : undefined;
}

export function inferRetired(description: string): boolean {
  return /\bretired\b/i.test(description);
}

function containsWord(text: string, keyword: string): boolean {
  const escaped = keyword.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b${escaped}`, 'i').test(text);
}

/** The table occupation whose longest keyword occurs in the text. */
export function inferOccupation(text: string): Occupation | undefined {
  let best: Occupation | undefined;
  let bestLength = 0;
  for (const occupation of OCCUPATIONS) {
    for (const keyword of occupation.keywords) {
      if (keyword.length > bestLength && containsWord(text, keyword)) {
        best = occupation;
        bestLength = keyword.length;
      }
    }
  }
  return best;
}

const NOT_A_JOB = new Set(
  (
    'fan enthusiast lover aficionado person individual member resident mother father parent mom dad wife husband ' +
    'woman man girl boy teenager teen child citizen user reader viewer follower supporter admirer hobbyist amateur ' +
    'newbie beginner grandmother grandfather grandparent couple family friend neighbor neighbour adult'
  ).split(' '),
);

/**
 * The role a PersonaHub line opens with: "A local historian passionate about…" → "local historian".
 * Undefined when the line does not open with an article or the phrase is long.
 */
export function inferRolePhrase(description: string): string | undefined {
  // "… who works as the manager of a gift shop in Chapel Hill." (LoCoMo persona summaries)
  const worksAs = /\bworks? as (?:an?|the) (.+?)(?=\s+(?:in|at|for|and|who|where)\b|[,.;:()]|$)/i.exec(
    description,
  );
  if (worksAs?.[1] !== undefined && worksAs[1].split(/\s+/).length <= 6)
    return worksAs[1].trim().toLowerCase();
  const match =
    /^(?:an?|the)\s+(.+?)(?=\s+(?:who|whom|that|with|from|in|at|of|on|for|and|passionate|interested|known|specializing|specialising|focused|seeking|looking|working|living|based|dedicated|committed|aspiring|eager|trying)\b|[,.;:()]|$)/i.exec(
      description.trim(),
    );
  const phrase = match?.[1]?.trim().toLowerCase();
  if (phrase === undefined || phrase === '' || phrase.split(/\s+/).length > 6) return undefined;
  const head = phrase.split(/\s+/).pop() ?? '';
  // "A die-hard fan", "A mother" describe the person, not a job.
  if (NOT_A_JOB.has(head)) return undefined;
  return phrase.replace(/^retired\s+/, '');
}

/** A city (and its country and tier) named in the text. */
export function inferPlace(text: string): { country: Country; city: string; tier: RegionTier } | undefined {
  for (const country of COUNTRIES) {
    for (const tier of REGION_TIERS) {
      if (tier === 'rural') continue;
      for (const city of country[tier]) if (containsWord(text, city)) return { country, city, tier };
    }
  }
  return undefined;
}

export function findCountry(name: string): Country | undefined {
  const wanted = name.trim().toLowerCase();
  return COUNTRIES.find((country) => country.name.toLowerCase() === wanted);
}

/** Table interests named in the text, in table order. */
export function inferInterests(text: string): Interest[] {
  return INTERESTS.filter((interest) => containsWord(text, interest.name));
}
