/**
 * The meaning reader on the hand-labelled paraphrase set (and, with --held-out, on the held-out
 * statements): false-contradiction, miss and unsure rates per category, for the reader alone and
 * with the fake judge deciding what the reader flags. Prints one JSON object.
 *
 *   npx --no-install tsx bench/meaning.ts [--held-out] [--list]
 */
import { fileURLToPath } from 'node:url';
import { labelJudge, loadStatements, outcome, rates } from './support/meaning-rates.js';

const heldOut = process.argv.includes('--held-out');
const file = heldOut ? 'held-out.jsonl' : 'paraphrases.jsonl';
const path = fileURLToPath(new URL(`../test/fixtures/meaning/${file}`, import.meta.url));
const statements = loadStatements(path);

if (process.argv.includes('--list')) {
  for (const statement of statements) {
    const { verdict, readings } = outcome(statement);
    if (verdict === statement.label) continue;
    console.log(`${statement.id} ${statement.label}→${verdict} | ${statement.text}`);
    for (const r of readings) console.log(`    ${r.item}: ${r.verdict} — ${r.reason} [${r.clause}]`);
  }
}

const start = performance.now();
const alone = rates(statements);
const ms = performance.now() - start;
console.log(
  JSON.stringify(
    {
      set: file,
      statements: statements.length,
      readerAlone: alone,
      withFakeJudge: rates(statements, labelJudge),
      msPerStatement: Math.round((ms / statements.length) * 100) / 100,
    },
    null,
    2,
  ),
);
