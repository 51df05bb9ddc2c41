import { InputError } from '../errors/index.js';
import type { Persona } from '../schemas/persona.js';
import type { BuiltinPersonasConfig, PersonaFieldMapping } from '../schemas/personas-config.js';
import type { Rng } from '../util/rng.js';
import {
  drawGender,
  drawPlace,
  educationsFor,
  familiesFor,
  type Gender,
  interestsFor,
  lifeStageOf,
  occupationTitle,
  REGION_TIERS,
  type RegionTier,
  retiredFromFor,
  tierWeights,
  type Work,
  workOptionsFor,
} from './attributes.js';
import { cleanPersonaText } from './clean-text.js';
import {
  findCountry,
  inferAge,
  inferFamilyHint,
  inferGender,
  inferInterests,
  inferOccupation,
  inferPlace,
  inferRetired,
  inferRolePhrase,
} from './infer.js';
import type { NameRegistry } from './name-registry.js';
import type { FamilySituation } from './tables/lifestyle.js';
import { NAME_CULTURES, type NameCultureId } from './tables/names.js';
import type { Occupation } from './tables/occupations.js';

export interface PersonaFromRecordOptions {
  record: Record<string, unknown>;
  line: number;
  /** File path or `repo/file` for error messages. */
  sourceName: string;
  source: 'file' | 'hub';
  id: string;
  mapping: PersonaFieldMapping;
  builtin: BuiltinPersonasConfig;
  names: NameRegistry;
  rng: Rng;
}

type MappedKey = Exclude<keyof PersonaFieldMapping, 'description'>;

/** Reads a mapped column: absent → InputError naming file, line and field; empty → undefined. */
function field(options: PersonaFromRecordOptions, key: MappedKey | 'description'): unknown {
  const column = options.mapping[key];
  if (column === undefined) return undefined;
  if (!Object.hasOwn(options.record, column)) {
    throw new InputError(
      options.sourceName,
      `line ${options.line} has no field "${column}" (mapped to ${key})`,
      {
        field: column,
        hint: `fix the personas mapping (${key}: '${column}') or the file; fields present: ${Object.keys(options.record).join(', ')}`,
      },
    );
  }
  const where = { source: options.sourceName, line: options.line, field: column };
  // The persona boundary: every string a record gives is one clean line (see cleanPersonaText).
  const raw = options.record[column];
  const value =
    typeof raw === 'string'
      ? cleanPersonaText(raw, where)
      : Array.isArray(raw)
        ? raw.map((item) => (typeof item === 'string' ? cleanPersonaText(item, where) : item))
        : raw;
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === ''))
    return undefined;
  return value;
}

function text(options: PersonaFromRecordOptions, key: MappedKey): string | undefined {
  const value = field(options, key);
  return value === undefined ? undefined : String(value).trim();
}

function parseAge(options: PersonaFromRecordOptions): number | undefined {
  const value = field(options, 'age');
  if (value === undefined) return undefined;
  const age = Number(value);
  if (!Number.isInteger(age) || age < 14 || age > 100) {
    throw new InputError(
      options.sourceName,
      `line ${options.line}: age ${JSON.stringify(value)} is not an integer in 14..100`,
      {
        field: options.mapping.age ?? 'age',
      },
    );
  }
  return age;
}

function parseInterests(options: PersonaFromRecordOptions): string[] | undefined {
  const value = field(options, 'interests');
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value.map(String) : String(value).split(/[;,|]/);
  const clean = items.map((item) => item.trim()).filter((item) => item !== '');
  return clean.length > 0 ? clean : undefined;
}

/** Family situations that fit what the description says about children or grandchildren. */
function familiesMatching(families: FamilySituation[], description: string): FamilySituation[] {
  const wanted = inferFamilyHint(description);
  if (wanted === undefined) return families;
  const pattern = wanted === 'grandparent' ? /grand/ : /child|toddler|teenage|ten-year-old|grand/;
  const matching = families.filter((family) => pattern.test(family.text));
  return matching.length > 0 ? matching : families;
}

/** A job known only by its words in the description: plausible for working-age adults. */
function looseOccupation(title: string): Occupation {
  return { title, minAge: 20, maxAge: 70, minEducation: 0, maxEducation: 4, keywords: [] };
}

function clampRange(min: number, max: number, config: BuiltinPersonasConfig): [number, number] | undefined {
  const low = Math.max(min, config.minAge);
  const high = Math.min(max, config.maxAge);
  return low <= high ? [low, high] : undefined;
}

/**
 * The occupation a record states: the mapped column, else the description's opening role
 * ("A pediatric nurse who…" → "pediatric nurse", aged like the table's nurse), else any table
 * keyword in the description. The title keeps the record's own words.
 */
function occupationFromText(occupationText: string | undefined, description: string): Occupation | undefined {
  const phrase = occupationText ?? inferRolePhrase(description);
  if (phrase !== undefined) {
    const title = phrase.replace(/^retired\s+/i, '');
    const table = inferOccupation(title);
    return table === undefined ? looseOccupation(title) : { ...table, title };
  }
  return inferOccupation(description);
}

/** Chooses work and age together so they agree with each other and with the description. */
function chooseWorkAndAge(
  options: PersonaFromRecordOptions,
  description: string,
  givenAge: number | undefined,
  tier: RegionTier,
): { work: Work; age: number; occupationText: string | undefined } {
  const { rng, builtin } = options;
  const occupationText = text(options, 'occupation');
  const retired = inferRetired(occupationText ?? description);
  const occupation = occupationFromText(occupationText, description);
  if (occupation !== undefined) {
    const range = retired
      ? clampRange(builtin.retirementAge, 100, builtin)
      : clampRange(occupation.minAge, occupation.maxAge, builtin);
    const age = givenAge ?? (range === undefined ? undefined : rng.int(range[0], range[1]));
    if (age !== undefined)
      return { work: { occupation, retired: retired && occupation.student !== true }, age, occupationText };
  }
  const age = givenAge ?? rng.int(builtin.minAge, builtin.maxAge);
  const options2 = workOptionsFor(age, tier, builtin);
  if (retired && age >= builtin.retirementAge) {
    return { work: { occupation: rng.pick(retiredFromFor(tier)), retired: true }, age, occupationText };
  }
  const work =
    options2.length > 0 ? rng.pick(options2) : { occupation: rng.pick(retiredFromFor(tier)), retired: true };
  return { work, age, occupationText };
}

/**
 * Turns one file/hub record into a persona: mapped fields are taken as given; the rest are
 * drawn from the builtin tables, consistent with the description where a keyword says so
 * (occupation, retired, gender pronouns, a named city, named interests).
 *
 * @example
 * personaFromRecord({ record: { persona: 'A retired nurse in Lyon' }, line: 1, sourceName: 'p.jsonl', source: 'file',
 *   id: 'file:p.jsonl#L1', mapping: { description: 'persona' }, builtin, names, rng });
 */
export function personaFromRecord(options: PersonaFromRecordOptions): Persona {
  const { rng, builtin } = options;
  const rawDescription = field(options, 'description');
  if (rawDescription === undefined) {
    throw new InputError(
      options.sourceName,
      `line ${options.line}: the description field "${options.mapping.description}" is empty`,
      {
        field: options.mapping.description,
      },
    );
  }
  const description = String(rawDescription).trim().replace(/\s+/g, ' ');
  const city = text(options, 'city');
  const countryName = text(options, 'country');
  const named = inferPlace(city ?? description);
  const tier: RegionTier =
    named?.tier ?? (REGION_TIERS[rng.weightedIndex(tierWeights(builtin))] as RegionTier);
  const mappedCountry = countryName === undefined ? undefined : findCountry(countryName);
  const drawn = drawPlace(rng, tier);
  const country = mappedCountry ?? named?.country ?? drawn.country;
  // A country outside the tables keeps its own name as the place rather than a foreign city.
  const fallbackCity =
    countryName !== undefined && mappedCountry === undefined
      ? countryName
      : country === drawn.country
        ? drawn.city
        : rng.pick(country[tier]);
  const location = {
    city: city ?? named?.city ?? fallbackCity,
    country: countryName ?? country.name,
    regionTier: tier,
  };
  const { work, age, occupationText } = chooseWorkAndAge(
    options,
    description,
    parseAge(options) ?? inferAge(description),
    tier,
  );
  const genderText = text(options, 'gender');
  const gender: Gender | string = genderText ?? inferGender(description) ?? drawGender(rng, builtin);
  const family =
    text(options, 'family') ?? rng.pick(familiesMatching(familiesFor(work, age), description)).text;
  const familyEntry = familiesFor(work, age).find((entry) => entry.text === family);
  const [minInterests, maxInterests] = builtin.interests;
  const interests =
    parseInterests(options) ??
    (() => {
      const stated = inferInterests(description).map((interest) => interest.name);
      const wanted = Math.max(stated.length, rng.int(minInterests, maxInterests));
      const extra = rng.sample(
        interestsFor(age).filter((interest) => !stated.includes(interest.name)),
        wanted - stated.length,
      );
      return [...stated, ...extra.map((interest) => interest.name)];
    })();
  const cultures: NameCultureId[] = [...country.cultures];
  const genderKey: Gender = gender === 'female' || gender === 'male' ? gender : 'non-binary';
  const givenName = text(options, 'name');
  if (givenName !== undefined) options.names.reserve(givenName);
  return {
    id: options.id,
    source: options.source,
    description,
    name:
      givenName ??
      options.names.draw(
        rng,
        cultures.length > 0 ? cultures : (Object.keys(NAME_CULTURES) as NameCultureId[]),
        genderKey,
      ),
    age,
    gender,
    occupation: occupationText ?? occupationTitle(work),
    location,
    family,
    lifeStage:
      text(options, 'lifeStage') ??
      lifeStageOf(work, age, familyEntry ?? { text: family, minAge: 0, maxAge: 100, youngChildren: false }),
    education: text(options, 'education') ?? rng.pick(educationsFor(work, age)),
    interests,
  };
}
