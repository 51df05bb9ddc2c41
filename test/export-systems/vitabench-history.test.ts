/**
 * Issue 27, item 3: a VitaBench subtask needs the user's history. Several stores fit the request;
 * only the remembered preference picks one, through what the stores sell, never their names or
 * tags. Read by the fidelity reader (parser + stemmer), with planted defects of the old builder.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportBundle } from '../../src/export/read-run.js';
import { VitaBenchSystemConfig } from '../../src/export/systems/config.js';
import { buildVitaBenchTask, type PersonalizationTask } from '../../src/export/systems/index.js';
import type { UserPlan } from '../../src/schemas/plan.js';
import {
  addVitaCounts,
  emptyVitaCounts,
  measureVitaSubtasks,
  type VitaCounts,
  vitaFigures,
} from '../../src/validate/fidelity-vitabench.js';
import { smallCorpus } from './corpus.js';

type Sub = PersonalizationTask['subtasks'][number];
interface Store {
  store_id: string;
  name: string;
  tags: string[];
  products: Array<{ name: string; tags: string[] }>;
}

let runDir: string;
let bundles: ExportBundle[];
let tasks: PersonalizationTask[];
const config = VitaBenchSystemConfig.parse({ enabled: true });

beforeAll(async () => {
  ({ runDir, bundles } = await smallCorpus({
    plan: {
      profile: 'vitabench',
      horizonDays: { train: [60, 90], test: [90, 120] },
      testContexts: ['32k'],
      drift: { timeScale: 6 },
    },
  }));
  tasks = bundles.map((bundle) => buildVitaBenchTask(bundle, config, 7));
}, 120_000);
afterAll(async () => rm(runDir, { recursive: true, force: true }));

const storesOf = (sub: Sub) => (sub.environment.stores ?? sub.environment.shops) as Record<string, Store>;
const expectedId = (sub: Sub) =>
  String(sub.evaluation_criteria.expected_states[0]!.required_orders[0]!.store_id);
const focalOf = (plan: UserPlan, sub: Sub) => plan.preferences.find((p) => p.id === sub.focal_preference)!;

/** The corpus counts after `plant` changed a copy of every subtask. */
function measure(plant: (sub: Sub, plan: UserPlan) => void = () => {}): VitaCounts {
  const total = emptyVitaCounts();
  for (const [i, task] of tasks.entries()) {
    const plan = bundles[i]!.plan;
    const subtasks = structuredClone(task.subtasks);
    for (const sub of subtasks) plant(sub, plan);
    addVitaCounts(total, measureVitaSubtasks(subtasks, plan));
  }
  return total;
}

describe('VitaBench subtasks need the user history', () => {
  it('offer several stores that fit the request; only the remembered preference picks the expected one', () => {
    const n = measure();
    expect(n.subtasks).toBeGreaterThan(30);
    const figures = vitaFigures(n);
    for (const name of [
      'vitabench_history_blind_accuracy',
      'vitabench_single_fit_share',
      'vitabench_name_leak',
      'vitabench_oracle_misses',
    ])
      expect(figures[name]?.ok, `${name}: ${JSON.stringify(figures[name])}`).toBe(true);
    expect(figures.vitabench_single_fit_share!.value).toBe(0);
    expect(figures.vitabench_name_leak!.value).toBe(0);
    expect(figures.vitabench_oracle_misses!.value).toBe(0);
    // Mostly four stores (VitaBench's delivery tasks: 1–9, mostly 3–6); none alone.
    const sizes = tasks.flatMap((t) => t.subtasks.map((sub) => Object.keys(storesOf(sub)).length));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
    expect(sizes.filter((k) => k === config.candidates).length / sizes.length).toBeGreaterThan(0.8);
  });

  it('places the expected store anywhere in the list', () => {
    const positions = new Set(
      tasks.flatMap((t) => t.subtasks.map((sub) => Object.keys(storesOf(sub)).indexOf(expectedId(sub)))),
    );
    expect(positions.size).toBeGreaterThanOrEqual(3);
  });

  it('catches a store named after the preference (the old builder: "Mechanical Watches Bistro")', () => {
    const n = measure((sub, plan) => {
      const store = storesOf(sub)[expectedId(sub)]!;
      store.name = `${focalOf(plan, sub).item.replace(/\b\w/g, (c) => c.toUpperCase())} Bistro`;
    });
    expect(n.nameLeaks / n.subtasks).toBeGreaterThan(0.9);
    expect(vitaFigures(n).vitabench_name_leak!.ok).toBe(false);
  });

  it('catches a tag restating the preference or its negation ("no karaoke")', () => {
    const n = measure((sub, plan) => {
      const focal = focalOf(plan, sub);
      storesOf(sub)[expectedId(sub)]!.tags.push(focal.polarity === 'like' ? focal.item : `no ${focal.item}`);
    });
    expect(n.nameLeaks / n.subtasks).toBeGreaterThan(0.9);
  });

  it('catches an expected store that is the only one fitting the request (the others are decoys)', () => {
    const n = measure((sub) => {
      for (const store of Object.values(storesOf(sub)))
        if (store.store_id !== expectedId(sub)) {
          store.name = 'Popular Pick';
          store.tags = ['Popular pick'];
        }
    });
    expect(n.singleFit).toBe(n.subtasks);
    expect(vitaFigures(n).vitabench_history_blind_accuracy!.ok).toBe(false);
  });

  it('catches a request that names what the user prefers (a history-blind agent then wins)', () => {
    const n = measure((sub) => {
      sub.instruction = `Get me ${storesOf(sub)[expectedId(sub)]!.products[0]!.name}.`;
    });
    expect(vitaFigures(n).vitabench_history_blind_accuracy!.ok).toBe(false);
  });

  it('catches a second store that fits the preference as well (the expected answer is not unique)', () => {
    const n = measure((sub) => {
      const stores = Object.values(storesOf(sub));
      const right = stores.find((s) => s.store_id === expectedId(sub))!;
      const other = stores.find((s) => s.store_id !== expectedId(sub))!;
      other.products = structuredClone(right.products);
    });
    expect(n.oracleMisses).toBe(n.subtasks);
  });
});
