import { shippedJsonSchemas } from '../../src/config/index.js';

/** The shipped recipe JSON Schema (`schemas/recipe.schema.json`). */
export const recipeJsonSchemaOf = () => shippedJsonSchemas()['recipe.schema.json'];
export { buildTrainCommand, formatDryRun, loadRecipe, planNodes } from '../../src/train/index.js';
