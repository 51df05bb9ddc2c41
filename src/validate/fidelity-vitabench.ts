/**
 * Do VitaBench subtasks need the user's history (issue 27, item 3)? Read from the exported task
 * itself, with a parser and a stemmer — never the builder's name or tag lists:
 * - the history-blind agent: keeps the stores whose tags fit the request (all, when none do),
 *   scores each by the content words its name, tags and products share with the request, and
 *   picks among the best at random; its hit rate against chance (1 / stores) is held ≤ 10 points;
 * - single fit: fewer than two stores fit the request, or the expected one does not;
 * - name leak: the expected store's name or tags share a content word with the focal preference
 *   that not every other store's name or tags also have;
 * - the history oracle: an agent that knows the preferences the user holds at the task (and the
 *   diets' facts) must single out the expected store.
 */
import { stemmer } from 'stemmer';
import { dietFact } from '../plan/catalogue/diet-facts.js';
import { stateAt } from '../plan/state-at.js';
import type { Preference } from '../schemas/plan.js';
import { parse } from '../synth/meaning/nlp.js';
import type { FidelityFigure } from './fidelity-figures.js';
import { defect } from './fidelity-figures.js';

/** One user's VitaBench counts (structured-cloneable; summed over users). */
export interface VitaCounts {
  subtasks: number;
  /** Expected hits of the history-blind agent (a probability per subtask). */
  blindHits: number;
  /** Sum over subtasks of 1 / stores. */
  chance: number;
  singleFit: number;
  nameLeaks: number;
  oracleMisses: number;
}

export const emptyVitaCounts = (): VitaCounts => ({
  subtasks: 0,
  blindHits: 0,
  chance: 0,
  singleFit: 0,
  nameLeaks: 0,
  oracleMisses: 0,
});

/** The parts of a subtask this reader looks at (VitaBench's released shapes). */
export interface VitaSubtaskView {
  subtask_id: string;
  instruction: string;
  focal_preference: string;
  environment: { time: string; stores?: unknown; shops?: unknown };
  evaluation_criteria: { expected_states: Array<{ required_orders: Array<Record<string, unknown>> }> };
}

interface StoreView {
  store_id: string;
  name: string;
  tags: string[];
  products: Array<{ name: string; tags: string[] }>;
}

const CONTENT = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB']);

/** Porter stems of the nouns, names, adjectives and verbs of a text. */
export function contentStems(text: string): Set<string> {
  const stems = new Set<string>();
  for (const token of parse(text).flat())
    if (CONTENT.has(token.pos) && /[a-z]/.test(token.lower)) stems.add(stemmer(token.lemma || token.lower));
  return stems;
}

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].filter((w) => b.has(w)).length;
const storesOf = (sub: VitaSubtaskView): StoreView[] =>
  Object.values((sub.environment.stores ?? sub.environment.shops ?? {}) as Record<string, StoreView>);
const labelText = (s: StoreView) => [s.name, ...s.tags, ...s.products.flatMap((p) => p.tags)].join('. ');
const parseVita = (time: string) => Date.parse(`${time.replace(' ', 'T')}Z`);

/** The history oracle's pick: stores with the best score (liked items held, minus violations). */
function oraclePicks(stores: readonly StoreView[], focal: Preference, held: readonly Preference[]): string[] {
  const binding = [focal, ...held.filter((p) => p.condition === null && p.id !== focal.id)];
  const score = (s: StoreView) => {
    const offered = s.products.map((p) => p.name.toLowerCase()).join(' | ');
    const has = (item: string) => offered.includes(item.toLowerCase());
    let value = 0;
    for (const p of binding) {
      const diet = p.polarity === 'like' ? dietFact(p.item) : undefined;
      if (diet !== undefined) {
        if ([...diet.rulesOut].some(has)) value -= 10;
        if (p === focal && [...diet.asksFor].some(has)) value += 1;
      } else if (has(p.item)) value += p.polarity === 'like' ? 1 : -10;
    }
    return value;
  };
  const scores = stores.map(score);
  const best = Math.max(...scores);
  return stores.filter((_, i) => scores[i] === best).map((s) => s.store_id);
}

/**
 * Counts one user's subtasks. `preferences` is the user's plan (the ground truth of what they hold).
 *
 * @example measureVitaSubtasks(task.subtasks, plan).nameLeaks // 0
 */
export function measureVitaSubtasks(
  subtasks: readonly VitaSubtaskView[],
  plan: Parameters<typeof stateAt>[0],
): VitaCounts {
  const n = emptyVitaCounts();
  const byId = new Map(plan.preferences.map((p) => [p.id, p]));
  for (const sub of subtasks) {
    const stores = storesOf(sub);
    const expected = String(sub.evaluation_criteria.expected_states[0]?.required_orders[0]?.store_id ?? '');
    if (stores.length === 0) continue;
    n.subtasks++;
    n.chance += 1 / stores.length;
    const request = contentStems(sub.instruction);
    const labels = stores.map((s) => contentStems(labelText(s)));
    const fits = stores.filter((_, i) => overlap(request, labels[i]!) > 0);
    if (fits.length < 2 || !fits.some((s) => s.store_id === expected)) n.singleFit++;
    // The blind agent: surface fit, then request words in names, tags and products.
    const pool = fits.length > 0 ? fits : stores;
    const scores = pool.map((s) =>
      overlap(request, contentStems(`${labelText(s)}. ${s.products.map((p) => p.name).join('. ')}`)),
    );
    const best = Math.max(...scores);
    const tied = pool.filter((_, i) => scores[i] === best);
    if (tied.some((s) => s.store_id === expected)) n.blindHits += 1 / tied.length;
    const focal = byId.get(sub.focal_preference);
    if (focal === undefined) {
      n.oracleMisses++;
      continue;
    }
    // Name leak: words of the focal preference on the expected store's labels that set it apart.
    const mine = labels[stores.findIndex((s) => s.store_id === expected)] ?? new Set<string>();
    const others = labels.filter((_, i) => stores[i]!.store_id !== expected);
    const telling = [...mine].filter((w) => others.length === 0 || !others.every((o) => o.has(w)));
    const said = contentStems(`${focal.item}. ${focal.keywords.join('. ')}`);
    if (telling.some((w) => said.has(w))) n.nameLeaks++;
    const held = stateAt(plan, parseVita(sub.environment.time)).preferences;
    const picks = oraclePicks(stores, focal, held);
    if (picks.length !== 1 || picks[0] !== expected) n.oracleMisses++;
  }
  return n;
}

/** Adds `b` into `a`. */
export function addVitaCounts(a: VitaCounts, b: VitaCounts): void {
  for (const key of Object.keys(a) as Array<keyof VitaCounts>) a[key] += b[key];
}

/** The figures, when the run built VitaBench subtasks. */
export function vitaFigures(n: VitaCounts): Record<string, FidelityFigure> {
  if (n.subtasks === 0) return {};
  const accuracy = (n.blindHits / n.subtasks) * 100;
  const chance = (n.chance / n.subtasks) * 100;
  const points = Math.round((accuracy - chance) * 10) / 10;
  return {
    vitabench_history_blind_accuracy: {
      description: `VitaBench subtasks: a history-blind agent (request words against store names, tags and products) above chance, points (accuracy ${accuracy.toFixed(1)}%, chance ${chance.toFixed(1)}%)`,
      value: points,
      unit: '%',
      target: 10,
      kind: 'max',
      tolerance: null,
      count: Math.round(n.blindHits),
      of: n.subtasks,
      ok: points <= 10,
    },
    vitabench_single_fit_share: defect(
      'VitaBench subtasks where fewer than two stores, the expected one among them, fit the request',
      n.singleFit,
      n.subtasks,
      0,
    ),
    vitabench_name_leak: defect(
      "VitaBench subtasks whose expected store's name or tags share a word with the focal preference that sets it apart",
      n.nameLeaks,
      n.subtasks,
      0,
    ),
    vitabench_oracle_misses: defect(
      "VitaBench subtasks where an agent that knows the user's preferences does not single out the expected store",
      n.oracleMisses,
      n.subtasks,
      0,
    ),
  };
}
