import type { BigFive } from '../schemas/common.js';
import type { EnrichedPersona } from '../schemas/persona.js';
import type { Goal, Habit, ImageRef, Person, VisualConcept } from '../schemas/plan.js';
import type { Rng } from '../util/rng.js';
import {
  CONCEPT_NAMES,
  FEMALE_NAMES,
  FEMALE_RELATIONS,
  GOALS,
  HABITS,
  MALE_NAMES,
  MALE_RELATIONS,
  PERSON_NAMES,
  PERSONALITY_SHIFTS,
  RELATIONS,
  RELATIONSHIP_CHANGES,
} from './catalogue/life-catalogue.js';
import { iso, makeId } from './statements.js';

/** People in the user's life with their starting closeness (1–5) and contacts per month. */
export function drawPeople(rng: Rng, count: number, start: number, persona: EnrichedPersona): Person[] {
  const relations = rng.sample(RELATIONS, count);
  const taken = new Set([persona.persona.name.split(' ')[0]]);
  return relations.map((relation, index) => {
    // Gendered relations get a matching name; names never repeat within a user.
    const names = FEMALE_RELATIONS.has(relation)
      ? FEMALE_NAMES
      : MALE_RELATIONS.has(relation)
        ? MALE_NAMES
        : PERSON_NAMES;
    const free = names.filter((name) => !taken.has(name));
    const name = free.length > 0 ? rng.pick(free) : `${rng.pick(names)} ${index + 1}`;
    taken.add(name);
    return {
      id: makeId('person', index + 1),
      name,
      relation,
      timeline: [
        {
          time: iso(start),
          closeness: rng.int(2, 4),
          frequency: rng.int(1, 12),
          note: 'known before the history starts',
        },
      ],
    };
  });
}

/**
 * Moves a person's closeness by one step (never outside 1–5) and scales contact frequency,
 * appending the change to their timeline at `time`.
 */
export function changeRelationship(rng: Rng, person: Person, time: string) {
  const last = person.timeline[person.timeline.length - 1] as Person['timeline'][number];
  let change = rng.pick(RELATIONSHIP_CHANGES);
  if (last.closeness + change.closeness < 1 || last.closeness + change.closeness > 5) {
    change = RELATIONSHIP_CHANGES.find((item) => item.closeness === -change.closeness) ?? change;
  }
  const closeness = last.closeness + change.closeness;
  const frequency = Math.max(0, Math.round(last.frequency * (change.closeness > 0 ? 1.5 : 0.5) * 10) / 10);
  person.timeline.push({ time, closeness, frequency, note: change.note });
  return change;
}

export function drawGoals(rng: Rng, count: number): Goal[] {
  return rng.sample(GOALS, count).map((spec, index) => ({
    id: makeId('goal', index + 1),
    description: spec.description,
    keywords: [...spec.keywords],
    states: [],
  }));
}

export function drawHabits(rng: Rng, count: number, start: number): Habit[] {
  return rng.sample(HABITS, count).map((spec, index) => ({
    id: makeId('habit', index + 1),
    description: spec.description,
    keywords: [...spec.keywords],
    dayOfWeek: spec.dayOfWeek,
    timeOfDay: spec.timeOfDay,
    validFrom: iso(start),
    validUntil: null,
  }));
}

/** A Big Five shift that stays inside 1–5, or null when every candidate would leave the range. */
export function drawPersonalityShift(rng: Rng, current: BigFive) {
  const possible = PERSONALITY_SHIFTS.filter((shift) => {
    const value = current[shift.trait] + shift.delta;
    return value >= 1 && value <= 5;
  });
  return possible.length === 0 ? null : rng.pick(possible);
}

export interface PoolIndex {
  byId: Map<string, ImageRef>;
  /** Images by the class of their first (main) object. */
  byClass: Map<string, ImageRef[]>;
}

const indexes = new WeakMap<ImageRef[], PoolIndex>();

/** Lookups over an image pool, built once per pool array (pools are shared by every user of a run). */
export function poolIndex(pool: ImageRef[]): PoolIndex {
  let index = indexes.get(pool);
  if (index === undefined) {
    const byClass = new Map<string, ImageRef[]>();
    for (const image of pool) {
      const name = image.objects[0]?.name ?? 'object';
      const list = byClass.get(name);
      if (list === undefined) byClass.set(name, [image]);
      else list.push(image);
    }
    index = { byId: new Map(pool.map((image) => [image.id, image])), byClass };
    indexes.set(pool, index);
  }
  return index;
}

const PET_CLASSES = /dog|cat|bird|fish|rabbit|hamster|turtle|parrot|pet/i;
const PERSON_CLASSES = /person|man|woman|child|boy|girl|baby|people/i;
const PLACE_CLASSES = /house|tree|mountain|building|beach|park|lake|tower|garden|sun|cloud/i;

function conceptKind(objectClass: string): VisualConcept['kind'] {
  if (PET_CLASSES.test(objectClass)) return 'pet';
  if (PERSON_CLASSES.test(objectClass)) return 'person';
  if (PLACE_CLASSES.test(objectClass)) return 'place';
  return 'object';
}

/**
 * An M²A concept group: concepts bound to images that share a main object class, so the
 * concept is recognisable across its pictures.
 */
export function drawConcepts(
  rng: Rng,
  pool: ImageRef[],
  count: number,
  perConcept: readonly [number, number],
): VisualConcept[] {
  const byClass = poolIndex(pool).byClass;
  const used = new Set<string>();
  const names = rng.sample(CONCEPT_NAMES, count);
  const concepts: VisualConcept[] = [];
  const classes = new Set<string>();
  for (const [index, name] of names.entries()) {
    // Prefer a class not used by another concept, so each concept is recognisable by its class.
    let seed = rng.pick(pool);
    for (let tries = 0; tries < 8 && classes.has(seed.objects[0]?.name ?? 'object'); tries++)
      seed = rng.pick(pool);
    if (used.has(seed.id)) continue;
    classes.add(seed.objects[0]?.name ?? 'object');
    const main = seed.objects[0];
    const objectClass = main?.name ?? 'object';
    const siblings = (byClass.get(objectClass) ?? []).filter(
      (image) => !used.has(image.id) && image.id !== seed.id,
    );
    const images = [seed, ...rng.sample(siblings, rng.int(perConcept[0], perConcept[1]) - 1)];
    for (const image of images) used.add(image.id);
    concepts.push({
      id: makeId('concept', index + 1),
      name,
      kind: conceptKind(objectClass),
      objectClass,
      // No colour or count: the concept's photos differ in both, and each photo's turn says its own.
      description: `${name}, my ${objectClass}`,
      imageIds: images.map((image) => image.id),
    });
  }
  return concepts;
}
