import type { PreferenceCategory } from '../../src/schemas/index.js';

/** The preferences fixture plans draw from (test/support/plan-fixture.ts). */
export const PREFERENCE_BANK: Array<{
  category: PreferenceCategory;
  slot: string;
  item: string;
  keywords: string[];
}> = [
  { category: 'food', slot: 'food.cuisine', item: 'spicy Sichuan hotpot', keywords: ['Sichuan', 'hotpot'] },
  { category: 'food', slot: 'food.cuisine', item: 'light Japanese ramen', keywords: ['ramen'] },
  { category: 'food', slot: 'food.drink', item: 'oat milk flat white', keywords: ['oat milk', 'flat white'] },
  { category: 'food', slot: 'food.drink', item: 'jasmine green tea', keywords: ['jasmine', 'green tea'] },
  { category: 'food', slot: 'food.dessert', item: 'mango sticky rice', keywords: ['mango sticky rice'] },
  { category: 'shopping', slot: 'shopping.clothes', item: 'secondhand denim jackets', keywords: ['denim'] },
  {
    category: 'shopping',
    slot: 'shopping.gadgets',
    item: 'mechanical keyboards',
    keywords: ['mechanical keyboard'],
  },
  {
    category: 'travel',
    slot: 'travel.style',
    item: 'slow train trips through the mountains',
    keywords: ['train', 'mountains'],
  },
  {
    category: 'travel',
    slot: 'travel.style',
    item: 'beach resorts with all-inclusive deals',
    keywords: ['beach resort'],
  },
  { category: 'entertainment', slot: 'ent.music', item: 'live jazz nights', keywords: ['jazz'] },
  {
    category: 'entertainment',
    slot: 'ent.games',
    item: 'cooperative board games',
    keywords: ['board games'],
  },
  { category: 'entertainment', slot: 'ent.film', item: 'Korean thrillers', keywords: ['Korean', 'thriller'] },
  { category: 'lifestyle', slot: 'life.sport', item: 'early morning bouldering', keywords: ['bouldering'] },
  {
    category: 'lifestyle',
    slot: 'life.plants',
    item: 'keeping succulents on the balcony',
    keywords: ['succulents'],
  },
  {
    category: 'longtail',
    slot: 'long.hobby',
    item: 'restoring vintage film cameras',
    keywords: ['film cameras'],
  },
];
