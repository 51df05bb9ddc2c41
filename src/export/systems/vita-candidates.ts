/**
 * The candidates of one VitaBench subtask (issue 27, item 3): several offers that all fit the
 * surface request (the kind of thing asked for), of which only the user's remembered preference
 * picks one. What decides is what each offer contains, never its store's name or tags:
 * - a liked item: one offer has it; the others have other things of the same kind that the user
 *   holds no preference about (and the outdated item, when the user just changed their mind);
 * - a disliked item: each offer is a set of the same size drawn from the disliked item and a few
 *   neutral ones, each leaving out a different one (a Latin design): every offer lacks exactly
 *   one thing, and only the right one lacks the disliked thing;
 * - a diet: the other offers each hold a different dish the diet rules out (or none it asks for).
 */
import { DIET_FACTS, dietFact } from '../../plan/catalogue/diet-facts.js';
import { PREFERENCE_CATALOGUE } from '../../plan/catalogue/preference-catalogue.js';
import { baseSlot, fitsPersona } from '../../plan/preference-pool.js';
import type { Persona } from '../../schemas/persona.js';
import type { Preference, PreferenceCategory } from '../../schemas/plan.js';
import type { Rng } from '../../util/rng.js';

/**
 * What a request asks for: the word the request and every offer's store share, chosen to be in no
 * catalogue item ("trip" would single out "road trips"). Food splits into meals, drinks and snacks
 * (an oat milk latte is no answer to "order me a meal").
 */
export type VitaKind = 'meal' | 'drink' | 'snack' | 'shopping' | 'journey' | 'activity' | 'hobby supplies';

const KIND: Readonly<Record<PreferenceCategory, VitaKind>> = {
  food: 'meal',
  shopping: 'shopping',
  travel: 'journey',
  entertainment: 'activity',
  lifestyle: 'activity',
  longtail: 'hobby supplies',
};
const FOOD_KINDS: Readonly<Record<string, VitaKind>> = {
  'food.coffee': 'drink',
  'food.tea': 'drink',
  'food.wine': 'drink',
  'food.smoothie': 'drink',
  'food.dessert': 'snack',
  'food.snacks': 'snack',
  'food.cheese': 'snack',
  'food.fruit': 'snack',
};

/**
 * The kind of thing a preference's slot is about.
 *
 * @example kindOf({ slot: 'food.coffee', category: 'food' }) // 'drink'
 */
export const kindOf = (p: Pick<Preference, 'slot' | 'category'>): VitaKind =>
  FOOD_KINDS[baseSlot(p.slot)] ?? KIND[p.category];

/** Where fillers come from, by kind (hobby supplies borrow from shopping when short). */
const POOLS: Readonly<Record<VitaKind, readonly VitaKind[]>> = {
  meal: ['meal'],
  drink: ['drink'],
  snack: ['snack'],
  shopping: ['shopping'],
  journey: ['journey'],
  activity: ['activity'],
  'hobby supplies': ['hobby supplies', 'shopping'],
};

/** Catalogue items that are habits or circumstances, not something a store or agency sells. */
const NOT_OFFERED: ReadonlySet<string> = new Set([
  'skipping breakfast',
  'cooking pasta at home',
  'home-made dumplings',
  'ordering food delivery late at night',
  'food delivery fees',
  'baking sourdough bread',
  'baking cookies',
  'street food stalls',
  'crowded brunch places',
  'shopping online at night',
  'online shopping returns',
  'hunting discount coupons',
  'second-hand marketplaces',
  'bulk buying at Costco',
  'packing light with a carry-on',
  'window seats on flights',
  'aisle seats',
  'budget travel',
  'solo travel',
  'sleeping early',
  'staying up late',
  'cycling to work',
  'taking the subway',
  'cats',
  'dogs',
  'pet hair at home',
  'a tidy minimalist home',
  'lots of houseplants at home',
  'small gatherings with close friends',
  'big parties',
  'rainy days',
  'cold winters',
  'crossword puzzles',
  'sudoku',
  'audiobooks on my commute',
  'true-crime podcasts',
  'business podcasts',
  'crime documentaries',
  'Korean dramas',
  'sitcoms',
  'strategy video games',
  'cozy farming games',
  'mobile games',
  'mystery novels',
  'fantasy novels',
  'history books',
  'cooking competition shows',
  'morning runs',
  'a vegetarian diet',
  'a low-carb diet',
  'a high-protein diet',
]);

/**
 * Whether a store, venue or agency can offer what a preference is about (a diet is tested
 * through the dishes it allows; a habit such as "sleeping early" is not sold anywhere).
 *
 * @example offerable(pref) // false for "taking the subway"
 */
export const offerable = (p: Pick<Preference, 'item'>): boolean =>
  !NOT_OFFERED.has(p.item) || dietFact(p.item) !== undefined;

/** Whether no diet the user holds rules the preference's item out (a low-carb eater's liked dim sum). */
export const fitsHeldDiets = (p: Pick<Preference, 'item'>, active: readonly Preference[]): boolean =>
  !active.some((d) => d.polarity === 'like' && dietFact(d.item)?.rulesOut.has(p.item) === true);

/** One subtask's offers: the items each candidate holds; `expected` indexes the right one. */
export interface CandidateDesign {
  kind: VitaKind;
  offers: string[][];
  expected: number;
}

const GLUE = new Set(['the', 'and', 'with', 'for', 'from', 'abroad']);
/** An item's own words (glue words left out), to keep fillers clear of what the user holds. */
const words = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => w.length >= 3 && !GLUE.has(w)));

/**
 * Items no preference of the user bears on at the task: like-options the user does not hold, of
 * slots they dislike nothing in, fit for their profile, sharing no keyword with what they hold,
 * allowed by their diet.
 */
function neutralItems(
  persona: Persona,
  focal: Preference,
  active: readonly Preference[],
  outdated: readonly Preference[],
): Map<VitaKind, string[]> {
  const held = [...active, focal, ...outdated];
  // A slot the user dislikes something in is out ("spicy Sichuan hotpot" against "no very spicy
  // food"); a slot they like something in offers its other options ("black americano" beside
  // "oat milk lattes"), which they hold nothing about.
  const heldSlots = new Set(held.filter((p) => p.polarity === 'dislike').map((p) => baseSlot(p.slot)));
  const heldItems = new Set(held.map((p) => p.item));
  // The words that name what is held ("hotpot", "beach"): a filler sharing one may be the same thing.
  const heldWords = new Set(held.flatMap((p) => [...words(p.keywords.join(' '))]));
  const ruledOut = new Set(
    active.filter((p) => p.polarity === 'like').flatMap((p) => [...(dietFact(p.item)?.rulesOut ?? [])]),
  );
  const dietDishes = new Set(DIET_FACTS.flatMap((d) => [...d.rulesOut, ...d.asksFor]));
  const byKind = new Map<VitaKind, string[]>();
  for (const spec of PREFERENCE_CATALOGUE) {
    if (heldSlots.has(spec.slot) || !fitsPersona(spec, persona)) continue;
    const usable = spec.options.filter(
      (o) =>
        o.polarity === 'like' &&
        !heldItems.has(o.item) &&
        !NOT_OFFERED.has(o.item) &&
        !ruledOut.has(o.item) &&
        // A diet focal places dishes by its facts; other dishes stay out of its candidates.
        !(dietFact(focal.item) !== undefined && dietDishes.has(o.item)) &&
        ![...words(`${o.item} ${o.keywords.join(' ')}`)].some((w) => heldWords.has(w)),
    );
    const kind = kindOf(spec);
    byKind.set(kind, [...(byKind.get(kind) ?? []), ...usable.map((o) => o.item)]);
  }
  return byKind;
}

/** `count` distinct neutral items of a kind, from its pools (in order), drawn at random. */
function fillers(rng: Rng, pools: Map<VitaKind, string[]>, kind: VitaKind, count: number) {
  const picked: string[] = [];
  for (const from of POOLS[kind]) {
    if (picked.length >= count) break;
    picked.push(...rng.sample(pools.get(from) ?? [], count - picked.length));
  }
  return picked;
}

/** Meals of a diet's list the user holds nothing about (not in a slot they hold anything in). */
function dietDishes(set: ReadonlySet<string>, active: readonly Preference[]): string[] {
  const heldSlots = new Set(active.map((p) => baseSlot(p.slot)));
  return [...set].filter((item) =>
    PREFERENCE_CATALOGUE.some(
      (spec) =>
        !heldSlots.has(spec.slot) && kindOf(spec) === 'meal' && spec.options.some((o) => o.item === item),
    ),
  );
}

/**
 * The offers of one subtask about `focal` (expected first; the caller shuffles the stores).
 * Fewer than `size` offers when the user holds preferences in nearly every slot of the kind.
 *
 * @example designCandidates({ focal, active, outdated, size: 4, rng }).offers.length // 4
 */
export function designCandidates(input: {
  persona: Persona;
  focal: Preference;
  active: readonly Preference[];
  outdated: readonly Preference[];
  size: number;
  rng: Rng;
}): CandidateDesign {
  const { focal, active, size, rng } = input;
  const kind = kindOf(focal);
  const others = active.filter((p) => p.id !== focal.id);
  const pools = neutralItems(input.persona, focal, others, input.outdated);
  const diet = dietFact(focal.item);
  if (diet !== undefined && focal.polarity === 'like') {
    if (diet.asksFor.size > 0) {
      const wanted = rng.sample(dietDishes(diet.asksFor, others), 1);
      return {
        kind,
        offers: [wanted, ...fillers(rng, pools, kind, size - 1).map((f) => [f])],
        expected: 0,
      };
    }
    const against = rng.sample(dietDishes(diet.rulesOut, others), size - 1);
    const allowed = fillers(rng, pools, kind, 1);
    return { kind, offers: [allowed, ...against.map((d) => [d])], expected: 0 };
  }
  if (focal.polarity === 'like') {
    // The outdated like of the same slot is a candidate: an agent that missed the change picks it.
    const stale = input.outdated
      .filter((p) => p.polarity === 'like' && p.item !== focal.item && offerable(p))
      .map((p) => p.item)
      .slice(0, size - 1);
    const rest = fillers(rng, pools, kind, size - 1 - stale.length);
    return { kind, offers: [[focal.item], ...[...stale, ...rest].map((item) => [item])], expected: 0 };
  }
  // A dislike: every offer holds all but one of {disliked, n1, …}; the right one leaves out the disliked.
  const features = [focal.item, ...fillers(rng, pools, kind, size - 1)];
  const offers = features.map((_, i) => features.filter((_, j) => j !== i));
  return { kind, offers, expected: 0 };
}

/** A subtask's focal preference with its outdated predecessors and its offers. */
export interface FocalChoice {
  focal: Preference;
  outdated: Preference[];
  design: CandidateDesign;
}

/**
 * The focal preference of a subtask: one a drift opened since the last subtask if any, else any
 * said before; among them, one a store can offer and the user's diet allows, whose candidates
 * fill `size` stores (at least two, else the subtask is not built).
 *
 * @example chooseFocal({ opened, known, closed, active, persona, size: 4, rng })?.design.offers.length // 4
 */
export function chooseFocal(input: {
  opened: readonly Preference[];
  known: readonly Preference[];
  /** Preferences a drift closed since the last subtask (the outdated ones of a focal's slot). */
  closed: readonly Preference[];
  active: readonly Preference[];
  persona: Persona;
  size: number;
  rng: Rng;
}): FocalChoice | undefined {
  const { active, size, rng } = input;
  const fits = (p: Preference) => offerable(p) && fitsHeldDiets(p, active);
  const tiers = [input.opened.filter(fits), input.known.filter(fits), input.opened, input.known];
  for (const tier of tiers) {
    let best: FocalChoice | undefined;
    for (const focal of rng.shuffle(tier)) {
      const outdated = input.closed.filter((p) => p.slot === focal.slot);
      const design = designCandidates({
        persona: input.persona,
        focal,
        active,
        outdated,
        size,
        rng: rng.fork('offers', focal.id),
      });
      if (design.offers.length < 2 || design.offers.length <= (best?.design.offers.length ?? 1)) continue;
      best = { focal, outdated, design };
      if (design.offers.length >= size) break;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}
