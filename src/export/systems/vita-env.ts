/**
 * A VitaBench 2.0 subtask's world, in the shapes of the released task files (FORMATS.md §5,
 * `data/vitabench/*\/tasks_en.json`): an `environment` the agent can act on (the user's profile and
 * addresses, dietary restrictions, recent orders and searches, stores / shops with products) and
 * `expected_states` (the order a correct agent places). Each subtask has one focal preference and
 * several candidate stores that all fit the request; only the preference picks one, through what
 * the stores sell (vita-candidates.ts), never through their names or tags.
 */
import type { BehaviorEvent, UserDialogue } from '../../schemas/dialogue.js';
import type { Preference, UserPlan } from '../../schemas/plan.js';
import type { Rng } from '../../util/rng.js';
import type { CandidateDesign, VitaKind } from './vita-candidates.js';

export type VitaDomain = 'delivery' | 'instore' | 'ota';

export interface VitaProduct {
  product_id: string;
  name: string;
  store_id: string;
  store_name: string;
  price: number;
  tags: string[];
  attributes: string[];
}

export interface VitaStore {
  store_id: string;
  name: string;
  score: number;
  location: { address: string; longitude: number; latitude: number };
  tags: string[];
  products: VitaProduct[];
}

export interface VitaExpectedState {
  required_orders: Array<Record<string, unknown>>;
  optional_orders: [];
  state_rubrics: string[];
}

/** Store names: a word that says nothing about what is sold, then a word of the trade. */
const NAME_WORDS = [
  'Maple',
  'Harbour',
  'Lantern',
  'Cedar',
  'Juniper',
  'Willow',
  'Copper',
  'Orchid',
  'Granite',
  'Amber',
  'Pebble',
  'Linden',
  'Meadow',
  'Sparrow',
  'Northgate',
  'Bluebell',
  'Crescent',
  'Silver Birch',
  'Old Mill',
  'Lakeside',
];
const TRADE_WORDS: Readonly<Record<VitaKind, readonly string[]>> = {
  meal: ['Kitchen', 'Bistro', 'Canteen', 'Eatery', 'Table'],
  drink: ['Café', 'Corner', 'Cellar', 'Counter'],
  snack: ['Pantry', 'Deli', 'Corner', 'Counter'],
  shopping: ['Store', 'Goods', 'Emporium', 'Outlet', 'Depot'],
  journey: ['Travel', 'Tours', 'Voyages', 'Holidays'],
  activity: ['Club', 'Hall', 'Centre', 'Lounge', 'Place'],
  'hobby supplies': ['Supplies', 'Workshop', 'Store', 'Depot'],
};
/** The tag every store of a kind carries (the word a request for the kind says). */
const KIND_TAGS: Readonly<Record<VitaKind, string>> = {
  meal: 'Meals',
  drink: 'Drinks',
  snack: 'Snacks',
  shopping: 'Shopping',
  journey: 'Journeys',
  activity: 'Activities',
  'hobby supplies': 'Hobby supplies',
};
/** Store tags that hold for any store of any kind (VitaBench's "Dine-in available", "Quick service"). */
const SERVICE_TAGS = [
  'Quick service',
  'Open evenings',
  'Loyalty points',
  'New on the platform',
  'Card payment',
  'Parking nearby',
  'Five years on the platform',
];
const STREETS = [
  'Riverside Road',
  'Market Street',
  'Garden Lane',
  'Station Avenue',
  'Harbour Way',
  'Hill Road',
];
const AGE_GROUP = (age: number) => `${Math.floor(age / 5) * 5}~${Math.floor(age / 5) * 5 + 5}`;
const title = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());
const coordinate = (rng: Rng, base: number) => Math.round((base + rng.next() * 0.05) * 1e6) / 1e6;

/** Home and work addresses of a user, stable across their subtasks. */
export function userAddresses(plan: UserPlan, rng: Rng): { home: string; work: string } {
  const city = plan.enriched.persona.location.city;
  return {
    home: `No. ${rng.int(2, 180)} ${rng.pick(STREETS)}, ${city}`,
    work: `${title(plan.enriched.persona.occupation.split(' ')[0] ?? 'Office')} Building, ${rng.int(2, 300)} ${rng.pick(STREETS)}, ${city}`,
  };
}

/** An offer's product name: its items in order ("Dim sum, miso soup and dark chocolate"). */
function offerName(items: readonly string[]): string {
  const joined =
    items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

/** A store whose name and tags are drawn without looking at what it sells or the user holds. */
function store(
  rng: Rng,
  domain: VitaDomain,
  id: string,
  city: string,
  name: string,
  kind: VitaKind,
  items: readonly string[],
  serviceTags: readonly string[],
): VitaStore {
  const storeId = `S${id}`;
  const price = rng.int(12, domain === 'ota' ? 900 : 160) * Math.max(1, items.length - 1);
  const tags = [KIND_TAGS[kind], rng.pick(serviceTags)];
  return {
    store_id: storeId,
    name,
    score: Math.round((4 + rng.next()) * 10) / 10,
    location: {
      address: `No. ${rng.int(2, 300)} ${rng.pick(STREETS)}, ${city}`,
      longitude: coordinate(rng, 100),
      latitude: coordinate(rng, 25),
    },
    tags,
    products: [
      {
        product_id: `${storeId}_P1`,
        name: offerName(items),
        store_id: storeId,
        store_name: name,
        price,
        tags: [],
        attributes: [],
      },
    ],
  };
}

/** Whether a label shares no word (or one of its forms: "travel", "travelling"; "parking", "parks") with `said`, the focal preference's words. */
const clearOf = (said: ReadonlySet<string>) => (label: string) =>
  !(label.toLowerCase().match(/[a-z]+/g) ?? []).some((w) =>
    [...said].some((s) => s === w || (w.length >= 4 && s.length >= 4 && s.slice(0, 4) === w.slice(0, 4))),
  );

/** `count` distinct store names for a kind, none sharing a word with the focal preference. */
function storeNames(rng: Rng, kind: VitaKind, count: number, said: ReadonlySet<string>): string[] {
  const clear = clearOf(said);
  const first = rng.shuffle(NAME_WORDS.filter(clear));
  const trades = TRADE_WORDS[kind].filter(clear);
  return first.slice(0, count).map((word) => `${word} ${rng.pick(trades)}`);
}

/** Dietary restrictions at `t`: the food dislikes and diets in force (never a hidden one: all were said). */
export function dietaryRestrictions(active: readonly Preference[]): string[] {
  return active
    .filter(
      (p) =>
        p.category === 'food' && p.condition === null && (p.polarity === 'dislike' || /diet/.test(p.item)),
    )
    .map((p) => (p.polarity === 'dislike' ? `no ${p.item}` : p.item));
}

/** The user's recent orders and searches before `t`, from the behavior log. */
function history(dialogue: UserDialogue, t: number) {
  const before = dialogue.behaviors.filter((b: BehaviorEvent) => Date.parse(b.time) < t);
  const orders = before
    .filter((b) => b.type === 'order')
    .slice(-5)
    .map((b) => ({ store: b.merchant ?? '', product: b.items[0]?.name ?? '' }));
  const searches = before
    .filter((b) => b.type === 'search' && b.keyword != null)
    .slice(-6)
    .map((b) => b.keyword as string);
  return { orders, searches };
}

/** A subtask's environment: time and user (as every VitaBench file has), then the world to act on. */
export interface VitaEnvironment {
  time: string;
  user_id: string;
  [key: string]: unknown;
}

export interface SubtaskWorld {
  environment: VitaEnvironment;
  expected_states: VitaExpectedState[];
}

/**
 * The environment and expected state of one subtask about `focal` at time `time`.
 *
 * @example const world = buildSubtaskWorld({ plan, dialogue, focal, active, domain, t, subtaskId, time, rng, addresses, rubrics, design });
 */
export function buildSubtaskWorld(input: {
  plan: UserPlan;
  dialogue: UserDialogue;
  focal: Preference;
  active: readonly Preference[];
  domain: VitaDomain;
  t: number;
  subtaskId: string;
  time: string;
  rng: Rng;
  addresses: { home: string; work: string };
  rubrics: string[];
  /** What the candidate stores offer (vita-candidates.ts). */
  design: CandidateDesign;
}): SubtaskWorld {
  const { plan, focal, domain, rng, subtaskId, time, addresses } = input;
  const persona = plan.enriched.persona;
  const city = persona.location.city;
  const { design } = input;
  const said = new Set(`${focal.item} ${focal.keywords.join(' ')}`.toLowerCase().match(/[a-z]+/g) ?? []);
  const names = storeNames(rng.fork('names'), design.kind, design.offers.length, said);
  const clearTags = SERVICE_TAGS.filter(clearOf(said));
  const serviceTags = clearTags.length > 0 ? clearTags : ['Card payment'];
  // Stores in random order: where the right one stands says nothing.
  const placed = rng.shuffle(design.offers.map((items, i) => ({ items, expected: i === design.expected })));
  const stores = placed.map(({ items }, k) =>
    store(
      rng,
      domain,
      `${subtaskId}_${k + 1}`,
      city,
      names[k] ?? `Store ${k + 1}`,
      design.kind,
      items,
      serviceTags,
    ),
  );
  const order = stores[placed.findIndex((p) => p.expected)]!;
  const product = order.products[0]!;
  const { orders, searches } = history(input.dialogue, input.t);
  const environment: VitaEnvironment & { location: Array<Record<string, unknown>> } = {
    time,
    user_id: plan.userId,
    orders: {},
    location: [
      { address: addresses.home, longitude: order.location.longitude, latitude: order.location.latitude },
    ],
    user_historical_behaviors: {
      'user id': plan.userId,
      occupation: persona.occupation,
      gender: persona.gender,
      'age group': AGE_GROUP(persona.age),
      residence: city,
      'home address': addresses.home,
      'work address': addresses.work,
      'dietary restrictions': dietaryRestrictions(input.active),
      'recent orders': orders,
      'search history': searches,
    },
    [domain === 'instore' ? 'shops' : 'stores']: Object.fromEntries(stores.map((s) => [s.store_id, s])),
  };
  const required: Record<string, unknown> = {
    order_id: `${subtaskId}T01`,
    order_type: domain,
    user_id: plan.userId,
    store_id: order.store_id,
    note: '',
    location: domain === 'delivery' ? environment.location[0] : null,
    dispatch_time: '',
    shipping_time: null,
    delivery_time: '',
    total_price: product.price,
    create_time: time,
    update_time: time,
    status: domain === 'delivery' ? 'processed' : 'paid',
    products: [{ product_id: product.product_id, name: product.name, price: product.price, quantity: 1 }],
  };
  return {
    environment,
    expected_states: [{ required_orders: [required], optional_orders: [], state_rubrics: input.rubrics }],
  };
}
