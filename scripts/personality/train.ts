/**
 * Trains the learned personality reader from the messages in scripts/personality/train-*.jsonl
 * (each written by a different writer, apart from the reader, the phrase banks and the test sets)
 * and writes src/memory/gold/personality-model.json.
 *
 * The threshold is chosen across writers: the model is trained on all files but one and read on
 * the one left out, in turn; the threshold is the lowest at which, over the files left out, at
 * least 90% of the reads would be right in a corpus where one message in ten shows a trait. Prints
 * JSON with those figures.
 *
 *   npx --no-install tsx scripts/personality/train.ts [--check]
 *
 * --check writes nothing and exits 1 when the shipped model is not the one the messages train.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trainPersonalityModel } from '../../src/memory/gold/personality-train-model.js';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '../../src/memory/gold/personality-model.json');
const model = trainPersonalityModel(here);
const text = `${JSON.stringify(model)}\n`;
if (process.argv.includes('--check')) {
  const same = readFileSync(out, 'utf8') === text;
  console.log(JSON.stringify({ model: basename(out), matchesTraining: same }));
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(out, text);
  console.log(
    JSON.stringify({ wrote: out, features: Object.keys(model.weights).length, ...model.trainedOn }, null, 1),
  );
}
