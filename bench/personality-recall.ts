/**
 * The personality reader on the three sets of chat sentences written apart from it
 * (test/memory/personality-sets.ts): per set, sentences read on the intended side (recall), on
 * the other side, and no-trait sentences read as a trait. Prints JSON; --list adds the sentences
 * read wrong or missed.
 *
 *   npx --no-install tsx bench/personality-recall.ts [--list]
 */
import { readMessage } from '../src/memory/gold/personality-reading.js';
import type { BigFiveTrait } from '../src/schemas/common.js';
import { PERSONALITY_SETS } from '../test/memory/personality-sets.js';

const list = process.argv.includes('--list');
const report = PERSONALITY_SETS.map(({ name, shows, none }) => {
  let read = 0;
  let total = 0;
  const perSide: Record<string, string> = {};
  const wrong: string[] = [];
  const missed: string[] = [];
  for (const [key, sentences] of Object.entries(shows)) {
    const trait = key.slice(0, -1) as BigFiveTrait;
    const side = key.endsWith('+') ? 1 : -1;
    let hits = 0;
    for (const text of sentences) {
      const reading = readMessage(text)[trait];
      if (reading === side) hits++;
      else if (reading === -side) wrong.push(`${key}: ${text}`);
      else missed.push(`${key}: ${text}`);
    }
    read += hits;
    total += sentences.length;
    perSide[key] = `${hits}/${sentences.length}`;
  }
  const noneRead = none.filter((text) => Object.values(readMessage(text)).some((side) => side !== 0));
  return {
    set: name,
    recall: `${read}/${total}`,
    recallPct: Math.round((1000 * read) / total) / 10,
    otherSide: wrong.length,
    noTraitRead: `${noneRead.length}/${none.length}`,
    perSide,
    ...(list ? { wrong, noneRead, missed } : {}),
  };
});
console.log(JSON.stringify(report, null, 1));
