import type { BuiltinPersonasConfig } from '../schemas/personas-config.js';
import type { Rng } from '../util/rng.js';
import { FAMILY_SITUATIONS, type FamilySituation, INTERESTS, type Interest } from './tables/lifestyle.js';
import { EDUCATION_LEVELS, OCCUPATIONS, type Occupation } from './tables/occupations.js';
import { COUNTRIES, type Country } from './tables/places.js';

/**
 * The consistency rules shared by the builtin generator, its combination count and the gap
 * filling of file/hub personas: which jobs, schooling and family situations fit an age.
 */
export const REGION_TIERS = ['tier1', 'tier2', 'tier3', 'rural'] as const;
export type RegionTier = (typeof REGION_TIERS)[number];

/** Youngest age at which each education level can be complete (index = EDUCATION_LEVELS). */
const EDUCATION_MIN_AGE = [17, 18, 21, 23, 27] as const;

/** A job held now, or the one held before retirement. */
export interface Work {
  occupation: Occupation;
  retired: boolean;
}

export function occupationTitle(work: Work): string {
  return work.retired ? `retired ${work.occupation.title}` : work.occupation.title;
}

/** Jobs someone of this age can hold in this tier (students included). */
export function occupationsFor(age: number, tier: RegionTier): Occupation[] {
  return OCCUPATIONS.filter(
    (job) => age >= job.minAge && age <= job.maxAge && (job.tiers === undefined || job.tiers.includes(tier)),
  );
}

/** Jobs someone can have retired from: held into their fifties, not a student role. */
export function retiredFromFor(tier: RegionTier): Occupation[] {
  return OCCUPATIONS.filter(
    (job) =>
      job.student !== true &&
      job.maxAge >= 55 &&
      job.title !== 'stay-at-home parent' &&
      (job.tiers === undefined || job.tiers.includes(tier)),
  );
}

/** Every work option at this age: current jobs, plus retirements from `retirementAge`. */
export function workOptionsFor(age: number, tier: RegionTier, config: BuiltinPersonasConfig): Work[] {
  const current = occupationsFor(age, tier).map((occupation) => ({ occupation, retired: false }));
  if (age < config.retirementAge) return current;
  return [...current, ...retiredFromFor(tier).map((occupation) => ({ occupation, retired: true }))];
}

/** Picks work: retired with `retiredShare` from `retirementAge` (or when no job fits the age). */
export function drawWork(rng: Rng, age: number, tier: RegionTier, config: BuiltinPersonasConfig): Work {
  const current = occupationsFor(age, tier);
  const retiredOk = age >= config.retirementAge;
  if (retiredOk && (current.length === 0 || rng.chance(config.retiredShare))) {
    return { occupation: rng.pick(retiredFromFor(tier)), retired: true };
  }
  if (current.length === 0) return { occupation: rng.pick(retiredFromFor(tier)), retired: true };
  return { occupation: rng.pick(current), retired: false };
}

/** Education texts that fit the job and the age (students get an "in progress" degree). */
export function educationsFor(work: Work, age: number): string[] {
  const job = work.occupation;
  if (job.student === true && !work.retired) {
    if (job.minEducation === 0) return ['secondary school (in progress)'];
    if (job.minEducation === 2) return ["bachelor's degree (in progress)"];
    return age >= 26
      ? ["master's degree (in progress)", 'doctorate (in progress)']
      : ["master's degree (in progress)"];
  }
  const out: string[] = [];
  for (let level = job.minEducation; level <= job.maxEducation; level++) {
    if (age >= (EDUCATION_MIN_AGE[level] ?? 99)) out.push(EDUCATION_LEVELS[level] as string);
  }
  return out.length > 0 ? out : [EDUCATION_LEVELS[job.minEducation] as string];
}

/** Family situations plausible at this age for this work. */
export function familiesFor(work: Work, age: number): FamilySituation[] {
  const title = work.occupation.title;
  return FAMILY_SITUATIONS.filter((family) => {
    if (age < family.minAge || age > family.maxAge) return false;
    if (title === 'stay-at-home parent' && !work.retired) return family.youngChildren;
    if (title === 'high school student') return family.text.startsWith('lives with parents');
    return true;
  });
}

/** A coarse life stage from age, work and family. */
export function lifeStageOf(work: Work, age: number, family: FamilySituation): string {
  if (work.retired) return 'retired';
  if (work.occupation.student === true) return age < 18 ? 'teenager in school' : 'student';
  if (age <= 29) return 'early career';
  if (family.youngChildren && age <= 45) return 'raising young children';
  if (age <= 44) return 'establishing a career';
  if (age <= 59) return 'mid-career';
  return 'late career';
}

export function interestsFor(age: number): Interest[] {
  return INTERESTS.filter(
    (interest) => (interest.minAge ?? 0) <= age && age <= (interest.maxAge ?? Number.POSITIVE_INFINITY),
  );
}

export function tierWeights(config: BuiltinPersonasConfig): number[] {
  return REGION_TIERS.map((tier) => config.regionTiers[tier]);
}

export function citiesOf(country: Country, tier: RegionTier): readonly string[] {
  return country[tier];
}

/** Draws a country by weight and a city of the tier. */
export function drawPlace(rng: Rng, tier: RegionTier): { country: Country; city: string } {
  const country = COUNTRIES[rng.weightedIndex(COUNTRIES.map((c) => c.weight))] as Country;
  return { country, city: rng.pick(citiesOf(country, tier)) };
}

export const GENDERS = ['female', 'male', 'non-binary'] as const;
export type Gender = (typeof GENDERS)[number];

export function drawGender(rng: Rng, config: BuiltinPersonasConfig): Gender {
  const { female, male, nonBinary } = config.genders;
  return GENDERS[rng.weightedIndex([female, male, nonBinary])] as Gender;
}
