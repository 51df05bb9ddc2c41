import type { BigFiveTrait } from '../../schemas/common.js';
import { BIG_FIVE_TRAITS } from '../../schemas/common.js';
import type { Turn } from '../../schemas/dialogue.js';
import type { TreeOp } from '../../schemas/memory.js';
import type { EvidenceSlot, PreferenceCategory } from '../../schemas/plan.js';
import { type PlanIndex, preferenceClause } from './plan-index.js';

/*
 * Where each planned fact lives in Inside Out's English tree (data/persona-tree/human_tree_en.json).
 * Fixed facts go to the published leaves; preferences, goals, habits, people and photographed
 * objects get one new leaf each under an extensible branch (schema.ts INSIDE_OUT_EXTENSIBLE).
 */
const BEHAVIOR = '5_Behavioral_Characteristics';
const IDENTITY = '4_Identity_Characteristics';
const CATEGORY_BRANCH: Record<PreferenceCategory, string> = {
  food: `${BEHAVIOR}.Lifestyle.Self_Care`,
  shopping: `${BEHAVIOR}.Material_Security.Economic_Status`,
  travel: `${BEHAVIOR}.Lifestyle.Mobility_and_Travel`,
  entertainment: `${BEHAVIOR}.Knowledge_Base.Artistic_Preferences`,
  lifestyle: `${BEHAVIOR}.Lifestyle.Daily_Schedule`,
  longtail: `${BEHAVIOR}.Interests_and_Skills`,
};
const TRAIT_LEAF: Record<BigFiveTrait, string> = {
  openness: '3_Personality_Characteristics.Core_Personality.Openness',
  conscientiousness: '3_Personality_Characteristics.Core_Personality.Conscientiousness',
  extraversion: '3_Personality_Characteristics.Core_Personality.Extraversion',
  agreeableness: '3_Personality_Characteristics.Core_Personality.Agreeableness',
  neuroticism: '3_Personality_Characteristics.Core_Personality.Neuroticism',
};
const FACT_LEAF: Record<string, string> = {
  'fact.education': `${IDENTITY}.Social_Identity.Educational_Background.Educational_Attainment`,
  'fact.occupation': `${IDENTITY}.Social_Identity.Occupational_Role.Position`,
  'fact.location': `${IDENTITY}.Social_Identity.Migration_and_Mobility.Residence`,
  'fact.family': `${IDENTITY}.Family_System.Family_Structure.Type`,
};
const NAME_LEAF = `${IDENTITY}.Social_Identity.Legal_and_Civic_Status.Name`;
const AGE_LEAF =
  '1_Biological_Characteristics.Physiological_Status.Age_Related_Characteristics.Chronological_Age';
const LIFE_STAGE_LEAF = `${IDENTITY}.Life_Course.Life_Stage`;
const GOALS_BRANCH = `${IDENTITY}.Motivations_and_Goals.Goals`;
const PEOPLE_BRANCH = `${BEHAVIOR}.Social_Interactions.Significant_Others`;
const HABITS_BRANCH = `${BEHAVIOR}.Behavioral_Habits`;
const PETS_BRANCH = `${IDENTITY}.Family_System.Caregiving_Responsibilities`;
const OBJECTS_BRANCH = `${BEHAVIOR}.Lifestyle.Residential_Environment`;
const PETS = /\b(dog|cat|puppy|kitten|parrot|bird|rabbit|hamster|fish|turtle|pet)\b/i;

/**
 * A plan key as one path segment ([A-Za-z0-9_]).
 *
 * @example
 * pathSegment('coffee@time'); // 'coffee_at_time'
 */
export function pathSegment(key: string): string {
  const segment = key
    .replace(/@/g, '_at_')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return segment === '' ? 'item' : segment;
}

/**
 * The leaf that holds a preference's conflict slot (one leaf per slot; drift moves its value).
 *
 * @example
 * preferencePath('food', 'coffee'); // '5_Behavioral_Characteristics.Lifestyle.Self_Care.coffee'
 */
export function preferencePath(category: PreferenceCategory, slot: string): string {
  return `${CATEGORY_BRANCH[category]}.${pathSegment(slot)}`;
}

/**
 * The initial tree T_0 from the plan's enriched persona (core facts known before any dialogue).
 *
 * @example
 * const tree = createPersonaTree({ initial: initialTreeValues(indexPlan(plan)) });
 */
export function initialTreeValues(index: PlanIndex): Record<string, string> {
  const { persona, bigFive } = index.plan.enriched;
  // The published tree has no gender leaf; Inside Out keeps what its trunk names.
  const values: Record<string, string> = {
    [NAME_LEAF]: persona.name,
    [AGE_LEAF]: String(persona.age),
  };
  if (persona.lifeStage !== '') values[LIFE_STAGE_LEAF] = persona.lifeStage;
  for (const trait of BIG_FIVE_TRAITS) values[TRAIT_LEAF[trait]] = `${bigFive[trait]}/5`;
  return values;
}

/**
 * Applies what one evidence slot tells the tree to a working copy of the leaf values
 * (Inside Out §3: an UPDATE merges the still-valid old content with the new).
 */
function applySlot(index: PlanIndex, slot: EvidenceSlot, values: Map<string, string>): void {
  const day = slot.time.slice(0, 10);
  switch (slot.kind) {
    case 'preference': {
      const preference = index.preference(slot.refId);
      if (preference === undefined) return;
      const path = preferencePath(preference.category, preference.slot);
      const current = values.get(path);
      const clause = preferenceClause(preference);
      // Restating a known preference changes nothing; the leaf keeps its history.
      if (current === undefined || current.split('; ')[0] !== clause) values.set(path, clause);
      return;
    }
    case 'drift': {
      const event = index.drift(slot.refId);
      if (event === undefined) return;
      const previous =
        event.previousPreferenceId === null ? undefined : index.preference(event.previousPreferenceId);
      const next = event.preferenceId === null ? undefined : index.preference(event.preferenceId);
      const anchor = next ?? previous;
      if (anchor === undefined) return;
      const path = preferencePath(anchor.category, anchor.slot);
      if (next === undefined) {
        values.delete(path);
        return;
      }
      const current = values.get(path);
      const history =
        previous === undefined
          ? ''
          : `; previously ${preferenceClause(previous)} until ${day} (${event.cause})`;
      values.set(
        path,
        current === undefined && previous === undefined
          ? preferenceClause(next)
          : `${preferenceClause(next)}${history}`,
      );
      return;
    }
    case 'habit':
      values.set(`${HABITS_BRANCH}.${pathSegment(slot.refId)}`, slot.statement);
      return;
    case 'goal':
      values.set(`${GOALS_BRANCH}.${pathSegment(slot.refId)}`, `${slot.statement} (as of ${day})`);
      return;
    case 'relationship': {
      const person = index.plan.people.find((candidate) => candidate.id === slot.refId);
      const key = pathSegment(person?.name ?? slot.refId);
      const path = `${PEOPLE_BRANCH}.${key}`;
      const current = values.get(path);
      values.set(
        path,
        current === undefined
          ? slot.statement
          : `${slot.statement}; earlier: ${current.split('; earlier: ')[0]}`,
      );
      return;
    }
    case 'personality': {
      const now = index.personalityAt(slot.time);
      const before = index.personalityAt(new Date(Date.parse(slot.time) - 1).toISOString());
      for (const trait of BIG_FIVE_TRAITS) {
        if (now[trait] !== before[trait]) {
          values.set(TRAIT_LEAF[trait], `${now[trait]}/5 (${day}: ${slot.statement})`);
        }
      }
      return;
    }
    case 'fact': {
      const path = FACT_LEAF[slot.refId];
      if (path !== undefined) values.set(path, slot.statement);
      return;
    }
    case 'image': {
      const concept = index.plan.concepts.find((candidate) => candidate.id === slot.refId);
      if (concept !== undefined) {
        values.set(
          `${PETS.test(concept.objectClass) ? PETS_BRANCH : OBJECTS_BRANCH}.${pathSegment(concept.name)}`,
          `${concept.description} (Image Object: ${concept.objectClass})`,
        );
      }
      return;
    }
    case 'noise':
      return;
  }
}

/**
 * Gold ops for one chunk of turns: simulate the chunk's slots on the leaf values, then emit one
 * op per changed leaf (ADD for a new value, UPDATE for a changed one, DELETE for a removed one)
 * in path order, or `NO_OP()` when nothing changed. Returns the values after the chunk.
 *
 * @example
 * const { ops, after } = goldTreeOps(index, chunkTurns, tree.values);
 */
export function goldTreeOps(
  index: PlanIndex,
  turns: readonly Turn[],
  before: Readonly<Record<string, string>>,
): { ops: TreeOp[]; after: Record<string, string> } {
  const values = new Map(Object.entries(before));
  for (const turn of turns) {
    for (const slotId of turn.slots) {
      const slot = index.slot(slotId);
      if (slot !== undefined) applySlot(index, slot, values);
    }
  }
  const paths = [...new Set([...Object.keys(before), ...values.keys()])].sort();
  const ops: TreeOp[] = [];
  for (const path of paths) {
    const old = before[path];
    const next = values.get(path);
    if (old === next) continue;
    if (old === undefined) ops.push({ op: 'ADD', path, value: next as string });
    else if (next === undefined) ops.push({ op: 'DELETE', path, value: null });
    else ops.push({ op: 'UPDATE', path, value: next });
  }
  return {
    ops: ops.length > 0 ? ops : [{ op: 'NO_OP', path: null, value: null }],
    after: Object.fromEntries(values),
  };
}
