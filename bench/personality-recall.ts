/**
 * The personality readers (rules and learned) on the seven sets of chat sentences written apart from them
 * (test/memory/personality-sets.ts): per set, sentences read on the intended side (recall), on
 * the other side, and no-trait sentences read as a trait. Prints JSON; --list adds the sentences
 * read wrong or missed.
 *
 *   npx --no-install tsx bench/personality-recall.ts [--list]
 */
import { noTraitRead, PERSONALITY_SETS, tallySet } from '../test/memory/personality-sets.js';

const list = process.argv.includes('--list');
const report = PERSONALITY_SETS.map((set) => {
  const rows = Object.entries(tallySet(set));
  const read = rows.reduce((sum, [, row]) => sum + row.hit, 0);
  const total = rows.reduce((sum, [, row]) => sum + row.n, 0);
  const wrong = rows.flatMap(([key, row]) => row.wrong.map((text) => `${key}: ${text}`));
  const noneRead = noTraitRead(set);
  return {
    set: set.name,
    recall: `${read}/${total}`,
    recallPct: Math.round((1000 * read) / total) / 10,
    otherSide: wrong.length,
    noTraitRead: `${noneRead.length}/${set.none.length}`,
    perSide: Object.fromEntries(rows.map(([key, row]) => [key, `${row.hit}/${row.n}`])),
    ...(list
      ? { wrong, noneRead, missed: rows.flatMap(([key, row]) => row.missed.map((text) => `${key}: ${text}`)) }
      : {}),
  };
});
console.log(JSON.stringify(report, null, 1));
