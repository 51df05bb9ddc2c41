import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.js';
import { allocateTasks, LOCOMO_TASKS, PERSONA_MME_TASKS, PERSONAMEM_TASKS } from './tasks.js';

describe('task tables', () => {
  it('lists 13 Persona-MME tasks over 6 aspects (alignment is judged within them), 7 PersonaMem types and 5 LoCoMo categories', () => {
    expect(PERSONA_MME_TASKS).toHaveLength(13);
    expect(new Set(PERSONA_MME_TASKS.map((task) => task.group)).size).toBe(6);
    // Persona-MME's appendix: personality alignment is no standalone category.
    expect(PERSONA_MME_TASKS.filter((task) => task.answerType === 'binary')).toEqual([]);
    expect(PERSONAMEM_TASKS.map((task) => task.task)).toContain(
      'recalling_the_reasons_behind_previous_updates',
    );
    expect(LOCOMO_TASKS.map((task) => task.locomoCategory)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('allocateTasks', () => {
  it('covers every task once when count equals the number of tasks and weights are equal', () => {
    const equal = { 'persona-mme:visual_detail_recall': 1 };
    expect(allocateTasks(PERSONA_MME_TASKS, 13, equal).map((task) => task.task)).toEqual(
      PERSONA_MME_TASKS.map((task) => task.task),
    );
  });

  it('gives visual detail recall the published image-question share by default', () => {
    const tasks = allocateTasks(PERSONA_MME_TASKS, 16, {}).map((task) => task.task);
    expect(tasks.filter((task) => task === 'visual_detail_recall')).toHaveLength(4);
  });

  it('follows weights with largest remainders (M²A mix 2:3:1:4)', () => {
    const weights = { multi_hop: 2, temporal: 3, open_domain: 1, single_hop: 4, adversarial: 0 };
    const counts: Record<string, number> = {};
    for (const task of allocateTasks(LOCOMO_TASKS, 20, weights))
      counts[task.task] = (counts[task.task] ?? 0) + 1;
    expect(counts).toEqual({ multi_hop: 4, temporal: 6, open_domain: 2, single_hop: 8 });
  });

  it('returns nothing for a zero count or zero weights', () => {
    expect(allocateTasks(LOCOMO_TASKS, 0, {})).toEqual([]);
    const zero = Object.fromEntries(LOCOMO_TASKS.map((task) => [task.task, 0]));
    expect(allocateTasks(LOCOMO_TASKS, 5, zero)).toEqual([]);
  });
});

describe('question wording', () => {
  it('names a preference slot in words, never as its catalogue key', async () => {
    const { slotTopic } = await import('./preference-kernels.js');
    expect(slotTopic('shopping.plants-buy')).toBe('buying plants');
    expect(slotTopic('food.cuisine-thai@2024-01-01T00:00:00.000Z')).toBe('Thai food');
    expect(slotTopic('food.coffee')).toBe('coffee');
    // Catalogue keys read as words: no "plants buy", "cuisine thai", "music genre".
    const { readFileSync } = await import('node:fs');
    const catalogue = readFileSync(
      new URL('../plan/catalogue/preference-catalogue.ts', import.meta.url),
      'utf8',
    );
    const keys = [...catalogue.matchAll(/^\s+\['([a-z0-9-]+)'/gm)].map((m) => m[1] as string);
    expect(keys.length).toBeGreaterThan(50);
    for (const key of keys)
      expect(slotTopic(`x.${key}`), key).not.toMatch(/ buy$|^cuisine |^kids |genre$|^sports watch$/);
  });
});

describe('published task mixes', () => {
  it('spread PersonaMem questions as the real 32k file does, over many users', () => {
    const counts = new Map<string, number>();
    const rng = createRng(5, 'mix');
    for (let user = 0; user < 2000; user++)
      for (const task of allocateTasks(PERSONAMEM_TASKS, 7, {}, rng))
        counts.set(task.task, (counts.get(task.task) ?? 0) + 1);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const share = (task: string) => ((counts.get(task) ?? 0) / total) * 100;
    expect(share('track_full_preference_evolution')).toBeCloseTo(23.6 / 0.971, 0);
    expect(share('provide_preference_aligned_recommendations')).toBeCloseTo(9.3 / 0.971, 0);
    expect(counts.has('acknowledge_latest_user_preferences')).toBe(false);
  });

  it('let a pipeline weight override the published mix, family-scoped or by task name', () => {
    const only = allocateTasks(PERSONAMEM_TASKS, 4, { 'personamem:suggest_new_ideas': 1e9 });
    expect(only.map((task) => task.task)).toEqual(Array(4).fill('suggest_new_ideas'));
    // A bare name shared by two families (generalizing_to_new_scenarios) weights both.
    expect(allocateTasks(PERSONA_MME_TASKS, 14, {}).map((task) => task.task)).toHaveLength(14);
  });
});
