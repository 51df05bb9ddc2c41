import path from 'node:path';
import type { Recipe } from '../schemas/recipe.js';
import { shellQuote } from './shell.js';

/**
 * The commands that measure a trained checkpoint: serve it with `swift deploy` (ms-swift's
 * `DeployArguments`: `--model`, `--infer_backend`, `--port`, `--served_model_name`; or vLLM's
 * `vllm serve`), then run `persona-forge eval` on the recipe's `eval.set`.
 *
 * @example evalHint(recipe, '/out/v0-…/checkpoint-1200').join('\n')
 */
export function evalHint(recipe: Recipe, checkpoint: string, cwd: string = process.cwd()): string[] {
  const e = recipe.eval;
  if (e === undefined) return [];
  const name = `${recipe.name}-${path.basename(checkpoint)}`;
  const out = path.join(path.resolve(cwd, recipe.outputDir), 'eval', path.basename(checkpoint));
  return [
    `# measure ${checkpoint}: serve it, then evaluate (${e.strategy}, ${e.context} context)`,
    `swift deploy --model ${shellQuote(checkpoint)} --infer_backend vllm --port ${e.port} --served_model_name ${shellQuote(name)}`,
    `#   or: vllm serve ${shellQuote(checkpoint)} --port ${e.port} --served-model-name ${shellQuote(name)}`,
    `persona-forge eval ${shellQuote(path.resolve(cwd, e.set))} --out ${shellQuote(out)} --llm-base-url http://127.0.0.1:${e.port}/v1 --llm-model ${shellQuote(name)} --strategy ${e.strategy} --context ${e.context}`,
  ];
}
