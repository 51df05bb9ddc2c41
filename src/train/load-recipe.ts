import { loadYamlConfig } from '../config/index.js';
import { Recipe } from '../schemas/recipe.js';

/** Options of {@link loadRecipe}. */
export interface LoadRecipeOptions {
  /** Environment for `${VAR}` / `${VAR:-default}` interpolation. @default process.env */
  env?: Record<string, string | undefined>;
  /** A partial recipe deep-merged over the file (e.g. from CLI flags). @default undefined */
  overrides?: unknown;
}

/**
 * Loads and validates a recipe YAML through the shared config loader: `extends:` (relative to
 * the file; maps merge, lists replace), `${VAR}` interpolation, then the strict `Recipe` schema;
 * problems throw `ConfigError` naming the file and YAML path. Relative data and output paths
 * stay relative: `buildTrainCommand` resolves them against its `cwd` (the directory you launch
 * from), like ms-swift's own flags.
 *
 * @example
 * const recipe = await loadRecipe('recipes/personavlm-sft.yaml');
 */
export async function loadRecipe(file: string, options: LoadRecipeOptions = {}): Promise<Recipe> {
  const loaded = await loadYamlConfig(file, Recipe, {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
  });
  return loaded.config;
}
