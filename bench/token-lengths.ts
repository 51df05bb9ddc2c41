// Figures for the preflight's token count (the model's own tokenizer over every exported row):
// tokenizer load time, and rows and tokens per second with every row counted (max_length 1, so
// the byte bound skips nothing) and with the shipped recipe's max_length (the byte bound skips
// rows that cannot be over). Needs an export: `make run` writes out/quickstart/export.
// Run: npx --no-install tsx bench/token-lengths.ts [export-dir]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRecipe } from '../src/train/index.js';
import { measureTokenLengths } from '../src/train/token-lengths.js';
import { loadModelTokenizer } from '../src/util/model-tokenizer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const exportDir = path.resolve(process.argv[2] ?? path.join(root, 'out/quickstart/export'));
const file = path.join(exportDir, 'sft/train.jsonl');
if (!existsSync(file)) {
  console.error(`no ${file}: run \`make run\` first or pass an export directory`);
  process.exit(1);
}
const recipe = await loadRecipe(path.join(root, 'recipes/personavlm-sft.yaml'), {
  env: { PF_EXPORT_DIR: exportDir },
});

let t = performance.now();
const tokenizer = await loadModelTokenizer('qwen2_5_vl');
const loadMs = performance.now() - t;

const everyRow = { ...recipe, hyperparameters: { ...recipe.hyperparameters, maxLength: 1 } };
t = performance.now();
const all = await measureTokenLengths(everyRow, file, tokenizer);
const allMs = performance.now() - t;

t = performance.now();
const shipped = await measureTokenLengths(recipe, file, tokenizer);
const shippedMs = performance.now() - t;

console.log(
  JSON.stringify({
    file,
    rows: all.rows,
    tokenizerLoadMs: Math.round(loadMs),
    everyRowCounted: { ms: Math.round(allMs), rowsPerSecond: Math.round(all.rows / (allMs / 1000)) },
    shippedMaxLength: {
      maxLength: recipe.hyperparameters.maxLength,
      overMaxLength: shipped.overMaxLength,
      ms: Math.round(shippedMs),
      rowsPerSecond: Math.round(shipped.rows / (shippedMs / 1000)),
    },
  }),
);
