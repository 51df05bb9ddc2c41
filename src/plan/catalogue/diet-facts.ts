/**
 * What the catalogue's diets rule out or ask for, as world knowledge about its dishes: a
 * vegetarian eats none of the meat or fish dishes, a low-carb eater none of the starchy ones,
 * and a high-protein eater wants a dish rich in protein. The VitaBench task builder places
 * dishes by it and the validation oracle (an agent that knows the user's diet) reads it.
 */
import { MEAT_DISHES } from '../preference-pool.js';

export interface DietFact {
  /** The catalogue item of the diet ("a vegetarian diet"). */
  diet: string;
  /** Dishes the diet rules out. */
  rulesOut: ReadonlySet<string>;
  /** Dishes the diet asks for (a meal fits only if it has one); empty when any allowed dish fits. */
  asksFor: ReadonlySet<string>;
}

const PROTEIN_RICH = new Set([
  'steamed crab',
  'Korean barbecue',
  'salmon sushi',
  'Indian butter chicken',
  'roast goose',
  'fish tacos',
]);

export const DIET_FACTS: readonly DietFact[] = [
  { diet: 'a vegetarian diet', rulesOut: MEAT_DISHES, asksFor: new Set() },
  {
    diet: 'a low-carb diet',
    rulesOut: new Set([
      'thin-crust Neapolitan pizza',
      'tonkotsu ramen',
      'congee for breakfast',
      'mango sticky rice',
      'dim sum',
      'bento boxes for lunch',
      'avocado toast',
      'bubble milk tea',
    ]),
    asksFor: new Set(),
  },
  { diet: 'a high-protein diet', rulesOut: new Set(), asksFor: PROTEIN_RICH },
];

/** The diet fact of a catalogue item, when it is a diet. */
export const dietFact = (item: string): DietFact | undefined => DIET_FACTS.find((d) => d.diet === item);
