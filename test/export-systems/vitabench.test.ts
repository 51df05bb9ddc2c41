import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportBundle } from '../../src/export/read-run.js';
import { VitaBenchSystemConfig } from '../../src/export/systems/config.js';
import {
  buildVitaBenchTask,
  exportVitaBench,
  type PersonalizationTask,
  preferenceTag,
} from '../../src/export/systems/index.js';
import { stateAt } from '../../src/plan/state-at.js';
import { vitabenchTaskProblems } from '../../src/validate/rules/vitabench-tasks.js';
import { indexUser } from '../../src/validate/types.js';
import { smallCorpus } from './corpus.js';

let runDir: string;
let bundles: ExportBundle[];
let tasks: PersonalizationTask[];
const config = VitaBenchSystemConfig.parse({ enabled: true });
const parseVita = (time: string) => Date.parse(`${time.replace(' ', 'T')}Z`);

beforeAll(async () => {
  // Short horizons keep the corpus small; drift still happens (vitabench rates, timeScale 1 → raise it).
  ({ runDir, bundles } = await smallCorpus({
    plan: {
      profile: 'vitabench',
      horizonDays: { train: [60, 90], test: [90, 120] },
      testContexts: ['32k'],
      drift: { timeScale: 6 },
    },
  }));
  await exportVitaBench(bundles, join(runDir, 'vita'), config, 7);
  tasks = JSON.parse(await readFile(join(runDir, 'vita', 'tasks.json'), 'utf8')) as PersonalizationTask[];
}, 120_000);
afterAll(async () => rm(runDir, { recursive: true, force: true }));

describe('VitaBench 2.0 tasks', () => {
  it('writes one task per user with 10–20 temporally ordered subtasks in the published shape', () => {
    expect(tasks.map((t) => t.user_id)).toEqual(bundles.map((b) => b.plan.userId));
    for (const task of tasks) {
      expect(Object.keys(task).sort()).toEqual(['id', 'subtasks', 'user_id', 'user_profile']);
      expect(task.subtasks.length).toBeGreaterThanOrEqual(10);
      expect(task.subtasks.length).toBeLessThanOrEqual(20);
      const times = task.subtasks.map((s) => parseVita(String(s.environment.time)));
      for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
      for (const sub of task.subtasks) {
        expect(['delivery', 'instore', 'ota']).toContain(sub.domain);
        expect(sub.instruction.length).toBeGreaterThan(0);
        expect(sub.user_intention.length).toBeGreaterThan(0);
        expect(sub.evaluation_criteria.overall_rubrics.length).toBeGreaterThan(0);
        expect(sub.evaluation_criteria.overall_rubrics.length).toBeLessThanOrEqual(config.maxRubrics);
      }
    }
  });

  it('gives each subtask exactly the interactions since the previous one, nothing from its future', () => {
    for (const [i, task] of tasks.entries()) {
      const dialogue = bundles[i]!.dialogue;
      const last = parseVita(String(task.subtasks[task.subtasks.length - 1]!.environment.time));
      let previous = Number.NEGATIVE_INFINITY;
      let messages = 0;
      let behaviors = 0;
      for (const sub of task.subtasks) {
        const t = parseVita(String(sub.environment.time));
        for (const day of sub.interactions) {
          expect(Date.parse(`${day.date}T00:00:00Z`)).toBeLessThanOrEqual(t);
          expect(Date.parse(`${day.date}T23:59:59.999Z`)).toBeGreaterThan(previous);
          messages += day.dialogue.length;
          behaviors += day.behavior.length;
        }
        previous = t;
      }
      const turns = dialogue.sessions
        .filter((s) => Date.parse(s.start) <= last)
        .reduce((n, s) => n + s.turns.length, 0);
      expect(messages).toBe(turns);
      expect(behaviors).toBe(dialogue.behaviors.filter((b) => Date.parse(b.time) <= last).length);
    }
  });

  it('derives rubrics and intentions from the preferences active at the subtask time', () => {
    let checked = 0;
    for (const [i, task] of tasks.entries()) {
      const plan = bundles[i]!.plan;
      for (const sub of task.subtasks) {
        const t = parseVita(String(sub.environment.time));
        const active = stateAt(plan, t).preferences;
        for (const rubric of sub.evaluation_criteria.overall_rubrics) {
          const item =
            /user's preference: (.+)\.$/.exec(rubric)?.[1] ??
            /must not include (.+), which the user dislikes/.exec(rubric)?.[1];
          if (item !== undefined) {
            expect(
              active.map((p) => p.item),
              rubric,
            ).toContain(item);
            checked++;
          }
          const outdated = /outdated preference \((.+)\)\.$/.exec(rubric)?.[1];
          if (outdated !== undefined) expect(active.map(preferenceTag)).not.toContain(outdated);
        }
        // The focal preference is the intention's, and it is active.
        expect(active.some((p) => sub.user_intention.includes(p.item))).toBe(true);
        if (sub.skill_tested.includes('proactive'))
          expect(sub.evaluation_criteria.overall_rubrics[0]).toMatch(/must ask/);
      }
    }
    // Enough rubrics read to mean something (39 on this fixture since behaviour logs hold their
    // configured noise share).
    expect(checked).toBeGreaterThan(30);
  });

  it('marks update subtasks only after a drift and keeps the change history consistent with the drift', () => {
    let updates = 0;
    for (const [i, task] of tasks.entries()) {
      const plan = bundles[i]!.plan;
      let previous = Number.NEGATIVE_INFINITY;
      for (const sub of task.subtasks) {
        const t = parseVita(String(sub.environment.time));
        const memory = sub.user_scenario.personalized_preference_memory;
        const drifts = plan.drift.filter((d) => Date.parse(d.time) <= t);
        expect(memory.preference_tag_change_history).toHaveLength(drifts.length);
        if (sub.skill_tested.includes('update')) {
          updates++;
          expect(drifts.some((d) => Date.parse(d.time) > previous)).toBe(true);
        }
        // Replaying the history over the initial preferences gives `current`.
        const tags = plan.preferences
          .filter((p) => p.origin === 'initial' && Date.parse(p.validFrom) <= t)
          .map(preferenceTag);
        for (const change of memory.preference_tag_change_history) {
          if (change.before !== null) tags.splice(tags.indexOf(change.before), 1);
          if (change.after !== null) tags.push(change.after);
        }
        expect(tags.sort()).toEqual(Object.values(memory.current).flat().sort());
        previous = t;
      }
    }
    expect(updates).toBeGreaterThan(0);
  });

  it('builds every subtask as VitaBench does: an environment to act on and a non-empty expected state', () => {
    let subtasks = 0;
    for (const [i, task] of tasks.entries()) {
      const index = indexUser({ ...bundles[i]!, memory: null });
      expect(vitabenchTaskProblems(task, index)).toEqual([]);
      for (const sub of task.subtasks) {
        subtasks++;
        const env = sub.environment as Record<string, unknown>;
        expect(Object.keys(env)).toEqual(
          expect.arrayContaining(['time', 'user_id', 'orders', 'location', 'user_historical_behaviors']),
        );
        const stores = (env.stores ?? env.shops) as Record<
          string,
          { products: Array<{ product_id: string; name: string }> }
        >;
        const [state] = sub.evaluation_criteria.expected_states;
        const order = state!.required_orders[0] as {
          store_id: string;
          products: Array<{ product_id: string }>;
        };
        const store = stores[order.store_id]!;
        expect(store.products.map((p) => p.product_id)).toContain(order.products[0]!.product_id);
        // The target store sells what a liked focal preference names (a diet: the dishes it allows).
        const focal = bundles[i]!.plan.preferences.find((p) => p.id === sub.focal_preference)!;
        if (focal.polarity === 'like' && !/ diet$/.test(focal.item))
          expect(store.products[0]!.name.toLowerCase()).toBe(focal.item.toLowerCase());
        if (focal.polarity === 'dislike')
          expect(store.products[0]!.name.toLowerCase()).not.toContain(focal.item.toLowerCase());
        // One focus: no rubric names another active preference.
        const others = bundles[i]!.plan.preferences.filter((p) => p.id !== focal.id && p.item !== focal.item);
        for (const rubric of sub.evaluation_criteria.overall_rubrics)
          for (const other of others)
            if (!rubric.includes('outdated')) expect(rubric.includes(`: ${other.item}.`), rubric).toBe(false);
      }
    }
    expect(subtasks).toBeGreaterThan(0);
  });

  it.each([
    [
      'an empty expected state',
      (sub: PersonalizationTask['subtasks'][number]) => {
        sub.evaluation_criteria.expected_states = [];
      },
    ],
    [
      'a domain that does not fit the focal preference',
      (sub: PersonalizationTask['subtasks'][number]) => {
        sub.domain = sub.domain === 'ota' ? 'delivery' : 'ota';
      },
    ],
    [
      'a focal preference said only after the task',
      (sub: PersonalizationTask['subtasks'][number]) => {
        sub.environment.time = '2000-01-01 00:00:00';
      },
    ],
    [
      'an order at a store the environment does not have',
      (sub: PersonalizationTask['subtasks'][number]) => {
        (sub.evaluation_criteria.expected_states[0]!.required_orders[0] as { store_id: string }).store_id =
          'S-nowhere';
      },
    ],
  ])('catches a planted defect: %s', (_name, plant) => {
    const task = structuredClone(tasks[0]!);
    const sub = task.subtasks.find((s) => {
      const focal = bundles[0]!.plan.preferences.find((p) => p.id === s.focal_preference)!;
      return focal.category !== 'entertainment';
    })!;
    plant(sub);
    expect(vitabenchTaskProblems(task, indexUser({ ...bundles[0]!, memory: null })).length).toBeGreaterThan(
      0,
    );
  });

  it('is deterministic and honours the subtask range', () => {
    const bundle = bundles[0]!;
    const a = JSON.stringify(buildVitaBenchTask(bundle, config, 3));
    expect(JSON.stringify(buildVitaBenchTask(bundle, config, 3))).toBe(a);
    const few = buildVitaBenchTask(bundle, VitaBenchSystemConfig.parse({ subtasks: [3, 3] }), 3);
    expect(few.subtasks).toHaveLength(3);
  });
});
