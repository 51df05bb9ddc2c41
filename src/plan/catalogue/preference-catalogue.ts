import type { PreferenceCategory } from '../../schemas/plan.js';

/** Persona constraints and interest tags a catalogue slot is matched against. */
export interface SlotRequires {
  minAge?: number;
  maxAge?: number;
  /** Needs children in the family. */
  kids?: boolean;
  /** Only for tier-1/tier-2 cities (e.g. luxury malls, niche venues). */
  urban?: boolean;
}

export interface PreferenceOption {
  item: string;
  polarity: 'like' | 'dislike';
  keywords: string[];
}

/**
 * One conflict slot: its options are mutually exclusive (a user holds at most one of them at a
 * time); a `modify` drift moves from one option to another.
 */
export interface SlotSpec {
  slot: string;
  category: PreferenceCategory;
  options: PreferenceOption[];
  requires: SlotRequires;
  /** Words matched against the persona's interests and description to weight the draw. */
  tags: string[];
}

type Row = [slot: string, options: string, tags?: string, requires?: SlotRequires];

// Option syntax: "item/keyword,keyword; !disliked item/keyword". The first keyword is the one a
// realized turn must contain; extra keywords help retrieval.
const ROWS: Record<PreferenceCategory, Row[]> = {
  food: [
    ['spicy', 'spicy Sichuan hotpot/hotpot,spicy; !very spicy food/spicy', 'chinese cooking spicy'],
    ['coffee', 'oat milk lattes/latte,oat; black americano/americano; !coffee/coffee', 'coffee cafe'],
    [
      'tea',
      'jasmine green tea/jasmine,tea; bubble milk tea/bubble milk tea; !sweet milk tea/milk tea',
      'tea',
    ],
    [
      'breakfast',
      'congee for breakfast/congee; avocado toast/avocado; skipping breakfast/skipping breakfast',
    ],
    ['sushi', 'salmon sushi/sushi,salmon; !raw fish/raw fish', 'japanese'],
    ['ramen', 'tonkotsu ramen/ramen; !instant noodles/instant noodles', 'japanese'],
    [
      'dessert',
      'dark chocolate/dark chocolate; mango sticky rice/mango; !overly sweet desserts/sweet',
      'baking',
    ],
    [
      'diet',
      'a vegetarian diet/vegetarian; a high-protein diet/protein; a low-carb diet/low-carb',
      'fitness health',
    ],
    ['bbq', 'Korean barbecue/barbecue,korean; !greasy barbecue/greasy'],
    ['pizza', 'thin-crust Neapolitan pizza/pizza; !pineapple on pizza/pineapple'],
    ['seafood', 'steamed crab/crab; !shellfish/shellfish'],
    ['street-food', 'night-market street food/street food; !street food stalls/street food'],
    ['cooking', 'cooking pasta at home/pasta; home-made dumplings/dumplings', 'cooking'],
    ['delivery', 'ordering food delivery late at night/delivery; !food delivery fees/delivery fees'],
    ['fruit', 'fresh durian/durian; !durian/durian'],
    ['cheese', 'aged cheddar/cheddar; !blue cheese/blue cheese'],
    ['brunch', 'weekend brunch with eggs benedict/brunch; !crowded brunch places/brunch'],
    ['baking', 'baking sourdough bread/sourdough; baking cookies/cookies', 'baking'],
    ['wine', 'red wine/red wine,wine; craft beer/craft beer; !alcohol/alcohol', '', { minAge: 20 }],
    ['cuisine-thai', 'Thai green curry/green curry,Thai; !coconut-heavy curries/coconut'],
    ['cuisine-indian', 'Indian butter chicken/butter chicken,Indian; !cumin-heavy dishes/cumin'],
    ['cuisine-mexican', 'fish tacos/tacos; !cilantro/cilantro'],
    ['cuisine-cantonese', 'dim sum/dim sum; roast goose/roast goose', 'chinese'],
    ['snacks', 'salted peanuts/peanuts; !salty snacks/salty snacks'],
    ['smoothie', 'green smoothies/smoothie; !kale/kale', 'fitness health'],
    ['kids-food', 'kid-friendly family restaurants/family restaurant', 'family', { kids: true }],
    ['lunch', 'bento boxes for lunch/bento; salad bowls for lunch/salad'],
    ['soup', 'hot and sour soup/soup; miso soup/miso'],
  ],
  shopping: [
    [
      'clothes',
      'minimalist basics from Uniqlo/uniqlo,basics; vintage thrift clothes/thrift; !fast fashion/fast fashion',
      'fashion',
    ],
    ['shoes', 'running shoes/running shoes; leather boots/boots', 'running fitness'],
    ['online', 'shopping online at night/online; !online shopping returns/returns'],
    ['gadgets', 'the latest smartphones/smartphone; mechanical keyboards/keyboard', 'technology gaming'],
    ['skincare', 'fragrance-free skincare/skincare; !heavily scented lotions/scented'],
    ['books-buy', 'buying paperback books/paperback; e-books on a Kindle/kindle,e-book', 'reading books'],
    ['groceries', 'organic groceries/organic; bulk buying at Costco/bulk,costco'],
    ['luxury', 'designer handbags/handbag,designer; !luxury brands/luxury', 'fashion', { urban: true }],
    ['discounts', 'hunting discount coupons/coupon,discount', 'saving'],
    [
      'furniture',
      'Scandinavian furniture/scandinavian,furniture; mid-century furniture/mid-century',
      'design',
    ],
    ['toys', 'educational toys for my kids/toys', 'family', { kids: true }],
    ['plants-buy', 'buying houseplants/houseplants', 'gardening'],
    ['watches', 'mechanical watches/watch', '', { minAge: 25 }],
    ['cosmetics', 'matte lipstick/lipstick; !heavy makeup/makeup', 'fashion beauty'],
    ['stationery', 'Japanese stationery/stationery', 'art writing'],
    ['second-hand', 'second-hand marketplaces/second-hand', 'saving'],
    ['eco', 'plastic-free products/plastic-free', 'environment'],
    ['camera-gear', 'vintage film cameras/film camera', 'photography'],
  ],
  travel: [
    ['beach', 'beach holidays/beach; !crowded beaches/beach'],
    ['mountains', 'hiking trips in the mountains/hiking,mountain', 'hiking outdoors'],
    ['cities', 'city breaks with museums/museum,city break', 'history art'],
    ['flight-seat', 'window seats on flights/window seat; aisle seats/aisle seat'],
    ['lodging', 'boutique hotels/boutique hotel; hostels/hostel; Airbnb apartments/airbnb'],
    ['road-trip', 'road trips/road trip; !long drives/long drive', 'cars'],
    ['train', 'high-speed train travel/train; !overnight trains/overnight train'],
    ['japan', 'travelling to Japan/japan', 'japanese'],
    ['camping', 'camping under the stars/camping; !camping/camping', 'outdoors'],
    ['cruise', 'cruise holidays/cruise; !cruise ships/cruise', '', { minAge: 30 }],
    ['family-trips', 'theme parks with the kids/theme park', 'family', { kids: true }],
    ['solo', 'solo travel/solo; group tours/group tour'],
    ['packing', 'packing light with a carry-on/carry-on'],
    ['ski', 'ski trips/ski; snowboarding/snowboard', 'sports'],
    ['food-travel', 'food tours abroad/food tour', 'cooking'],
    ['weekend', 'short weekend getaways/getaway'],
    ['heat', 'warm tropical destinations/tropical; !hot humid weather/humid'],
    ['islands', 'island hopping/island'],
    ['historic', 'ancient temples and ruins/temple,ruins', 'history'],
    ['budget', 'budget travel/budget; !expensive resorts/resort', 'saving'],
  ],
  entertainment: [
    ['music-genre', 'indie rock/indie rock; jazz/jazz; K-pop/k-pop; classical music/classical', 'music'],
    [
      'movies',
      'sci-fi movies/sci-fi; romantic comedies/romantic comedies; !horror movies/horror',
      'movies film',
    ],
    ['series', 'crime documentaries/documentaries; Korean dramas/korean drama; sitcoms/sitcom', 'tv'],
    [
      'games',
      'strategy video games/strategy video game; cozy farming games/farming game; !mobile games/mobile games',
      'gaming',
    ],
    ['books', 'mystery novels/mystery; fantasy novels/fantasy; history books/history book', 'reading books'],
    ['podcasts', 'true-crime podcasts/podcast; business podcasts/podcast', 'podcasts'],
    ['concerts', 'live concerts/concert; !loud concerts/concert', 'music'],
    ['board-games', 'board game nights/board game', 'games'],
    ['sports-watch', 'watching football/football; watching basketball/basketball', 'sports'],
    ['theatre', 'musical theatre/musical; stand-up comedy/stand-up', 'theatre'],
    ['anime', 'Studio Ghibli films/ghibli', 'anime japanese'],
    ['karaoke', 'karaoke nights/karaoke; !karaoke/karaoke'],
    ['museums', 'modern art exhibitions/exhibition,art', 'art'],
    ['reality', 'cooking competition shows/cooking competition', 'cooking tv'],
    ['nightlife', 'cocktail bars/cocktail bar; quiet pubs/pub', '', { minAge: 20, maxAge: 55 }],
    ['cinema', 'IMAX screenings/imax; !crowded cinemas/cinema'],
    ['puzzles', 'crossword puzzles/crossword; sudoku/sudoku', 'puzzles'],
    ['audiobooks', 'audiobooks on my commute/audiobook', 'reading'],
    ['dance', 'salsa dancing/salsa; hip-hop dance classes/hip-hop', 'dance'],
    ['opera', 'Peking opera/opera', '', { minAge: 40 }],
  ],
  lifestyle: [
    [
      'exercise',
      'morning runs/morning run; yoga/yoga; swimming laps/swimming; !the gym/gym',
      'fitness running',
    ],
    ['sleep', 'sleeping early/sleeping early; staying up late/staying up late'],
    ['commute', 'cycling to work/cycling; taking the subway/subway'],
    ['pets', 'cats/cat; dogs/dog; !pet hair at home/pet hair', 'pets animals'],
    ['home', 'a tidy minimalist home/minimalist; lots of houseplants at home/houseplants', 'design'],
    ['meditation', 'guided meditation/meditation', 'wellness'],
    ['social', 'small gatherings with close friends/small gatherings; !big parties/big parties'],
    ['weather', 'rainy days/rainy; !cold winters/cold'],
  ],
  longtail: [
    ['calligraphy', 'Chinese calligraphy/calligraphy', 'art chinese'],
    ['astronomy', 'stargazing with a telescope/telescope,stargazing', 'science'],
    ['birding', 'birdwatching/birdwatching', 'nature'],
    ['knitting', 'knitting scarves/knitting', 'crafts'],
    ['fountain-pens', 'fountain pens/fountain pen', 'writing'],
    ['origami', 'origami/origami', 'crafts japanese'],
    ['bonsai', 'bonsai trees/bonsai', 'gardening'],
    ['vinyl', 'collecting vinyl records/vinyl', 'music'],
  ],
};

function parseOptions(text: string): PreferenceOption[] {
  return text.split(';').map((raw) => {
    const part = raw.trim();
    const dislike = part.startsWith('!');
    const [item = '', keywordText = ''] = (dislike ? part.slice(1) : part).split('/');
    const keywords = keywordText
      .split(',')
      .map((keyword) => keyword.trim())
      .filter((keyword) => keyword !== '');
    return { item: item.trim(), polarity: dislike ? 'dislike' : 'like', keywords };
  });
}

/**
 * The preference catalogue: conflict slots per category, each with mutually exclusive options.
 *
 * @example PREFERENCE_CATALOGUE.filter((slot) => slot.category === 'food').length;
 */
export const PREFERENCE_CATALOGUE: readonly SlotSpec[] = Object.entries(ROWS).flatMap(([category, rows]) =>
  rows.map(([slot, options, tags = '', requires = {}]) => ({
    slot: `${category}.${slot}`,
    category: category as PreferenceCategory,
    options: parseOptions(options),
    requires,
    tags: tags.split(' ').filter((tag) => tag !== ''),
  })),
);

/** Catalogue slot by its key. */
export const SLOT_BY_KEY: ReadonlyMap<string, SlotSpec> = new Map(
  PREFERENCE_CATALOGUE.map((spec) => [spec.slot, spec]),
);

/** Catalogue slots per category. */
export const SLOTS_BY_CATEGORY: ReadonlyMap<PreferenceCategory, readonly SlotSpec[]> = new Map(
  (Object.keys(ROWS) as PreferenceCategory[]).map((category) => [
    category,
    PREFERENCE_CATALOGUE.filter((spec) => spec.category === category),
  ]),
);
