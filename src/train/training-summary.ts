import type { Recipe } from '../schemas/recipe.js';

/**
 * What a recipe trains, in words, as ms-swift 4.x will run it: the chat template, which parts of
 * the model are trained and which are frozen, DAPO's overlong settings, and what happens to rows
 * longer than `max_length`. Printed by `train --dry-run`; every default named here is ms-swift's
 * (`swift/arguments/tuner_args.py`, `template_args.py`, `rlhf_args.py` at 3602360a).
 */
export interface TrainingSummary {
  template: string;
  trains: string;
  overlong: string | undefined;
  truncation: { strategy: TruncationStrategy; effect: string };
}

export type TruncationStrategy = 'delete' | 'left' | 'right' | 'split';

/** Model types with a vision tower (ms-swift's MLLM types this project ships recipes for, and kin). */
export function isMultimodal(recipe: Recipe): boolean {
  const type = recipe.model.modelType ?? '';
  return (
    /(^|_)(vl|omni)(_|$)|vl$|internvl|llava|minicpmv|ovis|gemma3n|glm4v/i.test(type) ||
    recipe.data.maxPixels !== undefined
  );
}

/**
 * The strategy ms-swift applies: `grpo.truncationStrategy` or `extraArgs.truncation_strategy`,
 * else its default — `left` for GRPO (`_init_grpo`), `delete` otherwise (`TemplateArguments`).
 */
export function truncationStrategy(recipe: Recipe): TruncationStrategy {
  const extra = recipe.extraArgs.truncation_strategy;
  const set = recipe.grpo?.truncationStrategy ?? (typeof extra === 'string' ? extra : undefined);
  if (set === 'delete' || set === 'left' || set === 'right' || set === 'split') return set;
  return recipe.stage === 'grpo' ? 'left' : 'delete';
}

/** What ms-swift does with a row longer than `max_length` under the recipe's strategy. */
export function truncationEffect(recipe: Recipe): string {
  const strategy = truncationStrategy(recipe);
  const grpo = recipe.stage === 'grpo';
  switch (strategy) {
    case 'delete':
      return grpo
        ? 'the prompt is dropped and another row is resampled in its place'
        : 'the row is dropped (its encoding raises MaxLengthError and the row is skipped)';
    case 'left':
      return isMultimodal(recipe)
        ? "its first tokens are cut (image tokens may be cut too, which fails the model's forward)"
        : 'its first tokens are cut';
    case 'right':
      return 'its last tokens are cut (the end of the answer is lost)';
    case 'split':
      return 'it is split into several rows (pre-training only)';
  }
}

function trains(recipe: Recipe): string {
  const t = recipe.tuner;
  const what = t.type === 'lora' ? 'LoRA adapters on the language model' : 'the language model (all weights)';
  if (!isMultimodal(recipe)) return `${what}; text-only model (no vision tower)`;
  const vit = t.freezeVit ?? true;
  const aligner = t.freezeAligner ?? true;
  const how = (v: boolean | undefined, flag: string) =>
    v === undefined ? `${flag} default true` : `${flag} ${v}`;
  const trained = [what, ...(vit ? [] : ['the vision tower']), ...(aligner ? [] : ['the aligner (merger)'])];
  const frozen = [...(vit ? ['the vision tower'] : []), ...(aligner ? ['the aligner (merger)'] : [])];
  return `${trained.join(' + ')}; frozen: ${frozen.length === 0 ? 'nothing' : frozen.join(', ')} (${how(t.freezeVit, 'freeze_vit')}, ${how(t.freezeAligner, 'freeze_aligner')})`;
}

function overlong(recipe: Recipe): string | undefined {
  const g = recipe.grpo;
  if (recipe.stage !== 'grpo') return undefined;
  const filter = g?.overlongFilter === true;
  const soft = g?.softOverlong;
  const budget = g?.maxCompletionLength ?? 512;
  const softText =
    soft === undefined
      ? 'soft punishment off'
      : `soft punishment on (soft_overlong reward × ${soft.weight}: from ${(soft.maxLength ?? budget) - soft.cacheLength} to ${soft.maxLength ?? budget} tokens, 0 → -1)`;
  return `overlong_filter ${filter}${filter ? ' (truncated completions get no loss)' : ''}; ${softText}; max_completion_length ${budget}`;
}

/**
 * The summary `train --dry-run` prints.
 *
 * @example
 * summarizeTraining(loadRecipe('recipes/personavlm-sft.yaml')).trains;
 * // 'the language model (all weights); frozen: the vision tower, the aligner (merger) (freeze_vit true, freeze_aligner true)'
 */
export function summarizeTraining(recipe: Recipe): TrainingSummary {
  const template =
    recipe.model.template ??
    'none set: ms-swift matches one from the model folder name (a renamed local folder of a multi-template model type fails)';
  return {
    template,
    trains: trains(recipe),
    overlong: overlong(recipe),
    truncation: { strategy: truncationStrategy(recipe), effect: truncationEffect(recipe) },
  };
}
