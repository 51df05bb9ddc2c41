export { recipeJsonSchema as recipeJsonSchemaOf } from '../../src/schemas/recipe.js';
export { buildTrainCommand, formatDryRun, loadRecipe, planNodes } from '../../src/train/index.js';
