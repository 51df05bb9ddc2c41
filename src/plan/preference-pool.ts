import type { Persona } from '../schemas/persona.js';
import type { Preference, PreferenceCategory } from '../schemas/plan.js';
import type { PlanSettings } from '../schemas/plan-config.js';
import type { Rng } from '../util/rng.js';
import { CONDITIONS } from './catalogue/life-catalogue.js';
import {
  PREFERENCE_CATALOGUE,
  type PreferenceOption,
  type SlotSpec,
} from './catalogue/preference-catalogue.js';

/** Weight multiplier for a slot whose tags match the persona's interests or description. */
const INTEREST_BOOST = 4;
/** Chance that a drawn option is a "like" when the slot offers both polarities. */
const LIKE_SHARE = 0.75;

export interface PreferenceChoice {
  spec: SlotSpec;
  option: PreferenceOption;
  condition: Preference['condition'];
  /** Conflict key: the catalogue slot, plus the context for conditional preferences. */
  slot: string;
}

/** Children living with the persona ("married with a toddler"), not "no children" or grown-up ones. */
export function hasChildrenAtHome(family: string): boolean {
  if (/no children|left home/i.test(family)) return false;
  return /\b(child|children|kids?|toddler|teenage|year-old|co-parenting|sons?|daughters?)\b/i.test(family);
}

/** True when the persona can plausibly hold preferences of this slot (age, children, city tier). */
export function fitsPersona(spec: SlotSpec, persona: Persona): boolean {
  const { requires } = spec;
  if (requires.minAge !== undefined && persona.age < requires.minAge) return false;
  if (requires.maxAge !== undefined && persona.age > requires.maxAge) return false;
  if (requires.kids === true && !hasChildrenAtHome(persona.family)) return false;
  if (
    requires.urban === true &&
    persona.location.regionTier !== 'tier1' &&
    persona.location.regionTier !== 'tier2'
  ) {
    return false;
  }
  return true;
}

/**
 * The catalogue slots a persona can hold, weighted by the category mix (VitaBench §3) and by
 * interest overlap, and a drawer of fresh preferences that never reuses an occupied slot.
 *
 * @example const pool = createPreferencePool(persona, settings); pool.draw(rng, new Set());
 */
export function createPreferencePool(persona: Persona, settings: PlanSettings) {
  const text = `${persona.interests.join(' ')} ${persona.description} ${persona.occupation}`.toLowerCase();
  const slots = PREFERENCE_CATALOGUE.filter((spec) => fitsPersona(spec, persona));
  const weights = new Map(
    slots.map((spec) => [spec, spec.tags.some((tag) => text.includes(tag)) ? INTEREST_BOOST : 1]),
  );
  const weight = (spec: SlotSpec) => weights.get(spec) ?? 1;
  const mix = settings.preferences.mix;
  const categories = Object.keys(mix) as PreferenceCategory[];

  function pickOption(rng: Rng, spec: SlotSpec, exclude?: PreferenceOption): PreferenceOption {
    const options = spec.options.filter((option) => option !== exclude);
    if (options.length === 0) {
      // A one-option slot drifts by flipping polarity of the same item ("no longer into X").
      const base = exclude ?? (spec.options[0] as PreferenceOption);
      return { ...base, polarity: base.polarity === 'like' ? 'dislike' : 'like' };
    }
    const likes = options.filter((option) => option.polarity === 'like');
    const dislikes = options.filter((option) => option.polarity === 'dislike');
    if (likes.length > 0 && (dislikes.length === 0 || rng.chance(LIKE_SHARE))) return rng.pick(likes);
    return rng.pick(dislikes.length > 0 ? dislikes : options);
  }

  const byCategory = new Map(
    categories.map((category) => [category, slots.filter((spec) => spec.category === category)]),
  );

  /**
   * A fresh preference in a slot not in `occupied` (base slot keys); null when none is left. An
   * option that contradicts a held preference (a meat dish for a vegetarian) is drawn again.
   */
  function draw(
    rng: Rng,
    occupied: { has(slot: string): boolean },
    held: readonly Preference[] = [],
  ): PreferenceChoice | null {
    for (let attempt = 0; attempt < 8; attempt++) {
      const choice = drawOnce(rng, occupied);
      if (choice === null || !dietConflict(choice.option, held)) return choice;
    }
    return null;
  }

  function drawOnce(rng: Rng, occupied: { has(slot: string): boolean }): PreferenceChoice | null {
    const free = new Map<PreferenceCategory, SlotSpec[]>();
    for (const [category, list] of byCategory) {
      const open = list.filter((spec) => !occupied.has(spec.slot));
      if (open.length > 0 && mix[category] > 0) free.set(category, open);
    }
    if (free.size === 0) return null;
    const present = [...free.keys()];
    const category = present[rng.weightedIndex(present.map((name) => mix[name]))] as PreferenceCategory;
    const inCategory = free.get(category) as SlotSpec[];
    const spec = inCategory[rng.weightedIndex(inCategory.map(weight))] as SlotSpec;
    const option = pickOption(rng, spec);
    let condition: Preference['condition'] = null;
    if (rng.chance(settings.preferences.conditionalRatio)) {
      const context = rng.pick(['time', 'companion', 'situation'] as const);
      condition = { context, when: rng.pick(CONDITIONS[context]) };
    }
    return {
      spec,
      option,
      condition,
      slot: condition === null ? spec.slot : `${spec.slot}@${condition.context}`,
    };
  }

  /** Another option of the same slot (a `modify` drift), never one that contradicts `held`. */
  function modify(rng: Rng, current: Preference, held: readonly Preference[] = []): PreferenceOption {
    const base = baseSlot(current.slot);
    const spec =
      PREFERENCE_CATALOGUE.find((candidate) => candidate.slot === base) ??
      (PREFERENCE_CATALOGUE[0] as SlotSpec);
    const options = spec.options;
    const same = options.find(
      (option) => option.item === current.item && option.polarity === current.polarity,
    );
    const exclude = same ?? { item: current.item, polarity: current.polarity, keywords: current.keywords };
    let option = pickOption(rng, spec, exclude);
    for (let attempt = 0; attempt < 8 && dietConflict(option, held); attempt++)
      option = pickOption(rng, spec, exclude);
    return dietConflict(option, held)
      ? { ...exclude, polarity: exclude.polarity === 'like' ? 'dislike' : 'like' }
      : option;
  }

  return { slots, draw, modify };
}

/** Liked dishes a vegetarian diet rules out (VitaBench audit: vegetarians who like Korean BBQ). */
export const MEAT_DISHES: ReadonlySet<string> = new Set([
  'spicy Sichuan hotpot',
  'salmon sushi',
  'tonkotsu ramen',
  'Korean barbecue',
  'steamed crab',
  'Indian butter chicken',
  'fish tacos',
  'roast goose',
]);
const VEGETARIAN = 'a vegetarian diet';

/** True when liking `option` contradicts a held like (or the reverse): a vegetarian diet and a meat dish. */
export function dietConflict(
  option: Pick<PreferenceOption, 'item' | 'polarity'>,
  held: ReadonlyArray<Pick<Preference, 'item' | 'polarity'>>,
): boolean {
  if (option.polarity !== 'like') return false;
  const likes = held.filter((p) => p.polarity === 'like').map((p) => p.item);
  if (option.item === VEGETARIAN) return likes.some((item) => MEAT_DISHES.has(item));
  return MEAT_DISHES.has(option.item) && likes.includes(VEGETARIAN);
}

/** The catalogue slot of a conflict key (conditional keys carry `@context`). */
export function baseSlot(slot: string): string {
  const at = slot.indexOf('@');
  return at < 0 ? slot : slot.slice(0, at);
}

export type PreferencePool = ReturnType<typeof createPreferencePool>;
