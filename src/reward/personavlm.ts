import type { ItemOutcome, RewardFunction } from './types.js';

/**
 * PersonaVLM's RL reward `r = f_acc + f_cons + 0.5·f_format` (SPEC.md §1; weights in
 * `functions.personavlm`). The three components are returned beside it; if any component
 * failed the total is null with that component's code (a failure never counts as 0).
 *
 * @example POST /v1/rewards {"reward":"personavlm","items":[{"completion":"…","solution":"(b)"}]}
 */
export const PERSONAVLM_COMPONENTS = ['accuracy', 'consistency', 'format'] as const;

export const personavlmReward: RewardFunction = {
  name: 'personavlm',
  description:
    'PersonaVLM RL reward: accuracy + consistency + 0.5·format (weights configurable); components returned.',
  requiredColumns: ['solution'],
  usesJudge: true,
  score(run) {
    const weights = run.config.personavlm;
    const parts = PERSONAVLM_COMPONENTS.map((name) => run.evaluate(name));
    return run.items.map(async (_item, index): Promise<ItemOutcome> => {
      const outcomes = await Promise.all(parts.map((part) => part[index] as Promise<ItemOutcome>));
      let total = 0;
      for (const [position, outcome] of outcomes.entries()) {
        if (outcome.value === null) {
          return {
            value: null,
            code: outcome.code,
            message: `${PERSONAVLM_COMPONENTS[position]}: ${outcome.message}`,
          };
        }
        total += weights[PERSONAVLM_COMPONENTS[position] as keyof typeof weights] * outcome.value;
      }
      return { value: Math.round(total * 10_000) / 10_000 };
    });
  },
};
