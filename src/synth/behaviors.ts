import type { BehaviorEvent } from '../schemas/dialogue.js';
import type { Preference, PreferenceCategory, UserPlan } from '../schemas/plan.js';
import type { SynthConfig } from '../schemas/synth-config.js';
import { createRng, type Rng } from '../util/rng.js';
import { NOISE_BANKS } from './offline/phrases.js';
import { createPlanView } from './plan-view.js';

export interface GenerateBehaviorsOptions {
  seed: number;
  config: SynthConfig['behaviors'];
}

type Scenario = BehaviorEvent['scenario'];
type EventType = BehaviorEvent['type'];

const SCENARIOS: Readonly<Record<PreferenceCategory, readonly Scenario[]>> = {
  food: ['delivery', 'instore'],
  shopping: ['shopping'],
  travel: ['ota'],
  entertainment: ['instore', 'ota'],
  lifestyle: ['shopping', 'instore'],
  longtail: ['shopping'],
};
const MERCHANT_SUFFIX: Readonly<Record<Scenario, readonly string[]>> = {
  delivery: ['Kitchen', 'Express', 'Noodle Bar', 'Canteen', 'To Go'],
  instore: ['House', 'Corner', 'Club', 'Studio', 'Hall'],
  ota: ['Travel', 'Journeys', 'Getaways', 'Trips'],
  shopping: ['Store', 'Outlet', 'Market', 'Supply', 'Shop'],
};
const VARIANTS = ['classic', 'large', 'deluxe', 'set', 'special', 'combo', 'mini', 'family size'];
/** Relative weights of preference-driven event types (VitaBench 2.0 behavior mix; orders and browsing dominate). */
const TYPE_WEIGHTS: ReadonlyArray<readonly [EventType, number]> = [
  ['browse', 0.26],
  ['search', 0.2],
  ['compare', 0.1],
  ['consult', 0.06],
  ['order', 0.28],
  ['favorite', 0.1],
];
const NOISE_KINDS = ['irrelevant', 'exploratory', 'on_behalf', 'impulse', 'correction'] as const;

const title = (text: string): string => text.replace(/\b\w/g, (c) => c.toUpperCase());
const price = (rng: Rng, [min, max]: readonly [number, number]): number =>
  Math.round(rng.float(min, max) * 2) / 2;

/**
 * VitaBench-style behavior logs (SPEC.md §4): browse, search, compare, consult, order, review,
 * cancel and favorite events between sessions. Positive events follow a preference that is
 * active at the event's time (so drift shows in the log); dislikes are never ordered. `noiseRate`
 * of the user's events are noise (irrelevant, exploratory, on behalf of others, impulses,
 * cancellations), counted in events: a mistaken order and its cancellation are two noise events,
 * a review one more ordinary event. Each slot is noise with the probability that keeps the
 * expected share at `noiseRate` for the kind drawn, unless the log owes a whole noise event
 * (then it is noise) or has half a one in excess (then it is not), so the realized share stays
 * within about one event of the configured one in every log. With probability `mirrorPlannedNoise` a noise round planned in the preceding session
 * leaves one event when the log still owes that much noise. A slot with no active like stays
 * empty. Events fall strictly between one session's end
 * and the next session's start.
 *
 * @example const events = generateBehaviors(plan, { seed: 42, config: SynthConfig.parse({}).behaviors });
 */
export function generateBehaviors(plan: UserPlan, options: GenerateBehaviorsOptions): BehaviorEvent[] {
  const { config } = options;
  const rng = createRng(options.seed, plan.userId, 'behaviors');
  const view = createPlanView(plan);
  const events: BehaviorEvent[] = [];
  const merchants = new Map<string, string>();
  const merchantFor = (pref: Preference, scenario: Scenario): string => {
    const key = `${pref.id}:${scenario}`;
    let name = merchants.get(key);
    if (name === undefined) {
      const local = createRng(options.seed, plan.userId, 'merchant', key);
      name = `${title(pref.keywords[0]!)} ${local.pick(MERCHANT_SUFFIX[scenario])}`;
      merchants.set(key, name);
    }
    return name;
  };
  let noisy = 0;
  const push = (event: Omit<BehaviorEvent, 'id'>): void => {
    events.push({ id: '', ...event });
    if (event.noise !== null) noisy++;
  };
  /** Noise events still owed to reach `noiseRate` after `size` more noise events (negative: too many). */
  const owedAfter = (size: number): number => config.noiseRate * (events.length + size) - (noisy + size);

  /** One noise interaction (VitaBench 2.0: irrelevant, exploratory, on behalf, impulse, cancellation). */
  const emitNoise = (kind: (typeof NOISE_KINDS)[number], at: number, likes: Preference[]): void => {
    const time = new Date(at).toISOString();
    const scenario = rng.pick(['delivery', 'instore', 'ota', 'shopping'] as const);
    const base = { time, scenario, rating: null, preferenceId: null, noise: kind } as const;
    if (kind === 'irrelevant')
      push({
        ...base,
        type: 'browse',
        merchant: `${title(rng.pick(NOISE_BANKS.gift!))} ${rng.pick(MERCHANT_SUFFIX[scenario])}`,
        items: [],
        keyword: null,
        tags: ['unrelated'],
        text: null,
      });
    else if (kind === 'exploratory')
      push({
        ...base,
        type: 'search',
        merchant: null,
        items: [],
        keyword: rng.pick(NOISE_BANKS.explore!),
        tags: ['exploratory'],
        text: null,
      });
    else if (kind === 'on_behalf') {
      const relative = rng.pick(NOISE_BANKS.relative!);
      push({
        ...base,
        type: 'order',
        merchant: `${title(rng.pick(NOISE_BANKS.gift!))} ${rng.pick(MERCHANT_SUFFIX.shopping)}`,
        scenario: 'shopping',
        items: [
          {
            name: rng.pick(NOISE_BANKS.gift!),
            price: price(rng, config.priceRanges.shopping),
            quantity: 1,
          },
        ],
        keyword: null,
        tags: ['gift', `for ${relative}`],
        text: `ordered for my ${relative}`,
      });
    } else if (kind === 'impulse')
      push({
        ...base,
        type: 'favorite',
        merchant: null,
        items: [
          {
            name: rng.pick(NOISE_BANKS.impulse!),
            price: price(rng, config.priceRanges[scenario]),
            quantity: 1,
          },
        ],
        keyword: null,
        tags: ['impulse'],
        text: null,
      });
    else {
      const pref = likes.length > 0 ? rng.pick(likes) : null;
      const sc = pref === null ? scenario : rng.pick(SCENARIOS[pref.category]);
      const merchant =
        pref === null
          ? `${title(rng.pick(NOISE_BANKS.explore!))} ${rng.pick(MERCHANT_SUFFIX[sc])}`
          : merchantFor(pref, sc);
      const items = [
        {
          name: pref?.item ?? rng.pick(NOISE_BANKS.explore!),
          price: price(rng, config.priceRanges[sc]),
          quantity: rng.int(1, 2),
        },
      ];
      push({
        ...base,
        scenario: sc,
        type: 'order',
        merchant,
        items,
        keyword: null,
        tags: ['mistaken order'],
        text: null,
      });
      push({
        ...base,
        scenario: sc,
        time: new Date(at + rng.int(3, 30) * 60_000).toISOString(),
        type: 'cancel',
        merchant,
        items,
        keyword: null,
        tags: ['correction'],
        text: 'ordered the wrong thing',
      });
    }
  };

  const horizonEnd = Date.parse(plan.horizon.end);
  for (let s = 0; s < plan.sessions.length; s++) {
    const session = plan.sessions[s]!;
    const next = plan.sessions[s + 1];
    const from = view.roundTime(session, session.rounds - 1) + session.roundGapMinutes * 60_000 + 10 * 60_000;
    const until = (next === undefined ? horizonEnd : Date.parse(next.start)) - 10 * 60_000;
    if (!(until - from > 60 * 60_000)) continue;
    // Noise planned in the session's dialogue leaves a trace in the log right after it; it counts
    // toward the noise share, so the draws below add only what is missing.
    for (const noise of session.noise) {
      // A misstatement is a spoken slip: its correction's cancelled order is the log's trace of the pair.
      if (noise.kind === 'misstatement') continue;
      if (!rng.chance(config.mirrorPlannedNoise)) continue;
      // A mirror is noise the log still owes: never beyond the configured share.
      if (owedAfter(noise.kind === 'correction' ? 2 : 1) < 0) continue;
      const at = Math.floor(rng.float(from, until - 40 * 60_000) / 60_000) * 60_000;
      const likes = view
        .activePreferences(new Date(at).toISOString())
        .filter((pref) => pref.polarity === 'like');
      emitNoise(noise.kind, at, likes);
    }
    const count = rng.poisson(config.eventsPerGap);
    const times = Array.from(
      { length: count },
      () => Math.floor(rng.float(from, until - 40 * 60_000) / 60_000) * 60_000,
    ).sort((a, b) => a - b);
    for (const at of times) {
      const time = new Date(at).toISOString();
      const likes = view.activePreferences(time).filter((pref) => pref.polarity === 'like');
      // Before the user likes anything the log has no ordinary event to hold noise against.
      if (likes.length === 0) continue;
      // The slot is noise with the probability that keeps the expected share at `noiseRate` (a
      // two-event correction is drawn less often); a whole noise event owed makes it noise, half
      // a one in excess ordinary (the thresholds that keep short logs centred on the rate).
      const kind = rng.pick(NOISE_KINDS);
      const size = kind === 'correction' ? 2 : 1;
      const rate = config.noiseRate;
      const even = rate === 0 ? 0 : rate / (rate + size * (1 - rate));
      const owed = owedAfter(0);
      const noise = owed >= 1 || (owed > -0.5 && rng.chance(even));
      if (noise) {
        emitNoise(kind, at, likes);
        continue;
      }
      const pref = rng.pick(likes);
      const scenario = rng.pick(SCENARIOS[pref.category]);
      const merchant = merchantFor(pref, scenario);
      const type = TYPE_WEIGHTS[rng.weightedIndex(TYPE_WEIGHTS.map(([, w]) => w))]![0];
      const tags = [pref.category, ...pref.keywords];
      const base = { time, scenario, preferenceId: pref.id, noise: null, rating: null, tags } as const;
      const item = () => ({
        name: rng.chance(0.5) ? pref.item : `${pref.keywords[0]} ${rng.pick(VARIANTS)}`,
        price: price(rng, config.priceRanges[scenario]),
        quantity: rng.int(1, 2),
      });
      if (type === 'search')
        push({ ...base, type, merchant: null, items: [], keyword: rng.pick(pref.keywords), text: null });
      else if (type === 'compare')
        push({
          ...base,
          type,
          merchant,
          items: [item(), item()],
          keyword: null,
          text: `compared options for ${pref.item}`,
        });
      else if (type === 'consult')
        push({
          ...base,
          type,
          merchant,
          items: [],
          keyword: null,
          text: `asked ${merchant} about ${pref.item}`,
        });
      else if (type === 'order') {
        const items = [item()];
        push({ ...base, type, merchant, items, keyword: null, text: null });
        // An order is sometimes reviewed before the next session.
        const reviewAt = at + rng.int(30, 36 * 60) * 60_000;
        if (rng.chance(0.35) && reviewAt < until) {
          push({
            ...base,
            time: new Date(reviewAt).toISOString(),
            type: 'review',
            merchant,
            items,
            keyword: null,
            rating: rng.int(4, 5),
            text: `${title(pref.item)} was great, as always.`,
          });
        }
      } else
        push({
          ...base,
          type,
          merchant,
          items: type === 'favorite' ? [item()] : [],
          keyword: null,
          text: null,
        });
    }
  }
  events.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return events.map((event, i) => ({ ...event, id: `${plan.userId}:B${i}` }));
}
