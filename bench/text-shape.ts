/**
 * What the text-shape figures cost validation (src/validate/text-shape.ts): parses a run's
 * dialogues the way `measureUserFidelity` samples them (user turns of every 2nd round, assistant
 * turns of every 4th) and prints JSON: turns parsed, CPU milliseconds in one thread, per turn.
 * Compare with the validate stage's CPU time in `bench/e2e.ts` on the same run.
 * Run: npx --no-install tsx bench/text-shape.ts <run folder>
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PARSE_EVERY, PARSE_USER_EVERY } from '../src/validate/fidelity-measure.js';
import { parsedShape } from '../src/validate/text-shape.js';

const run = process.argv[2];
if (run === undefined) throw new Error('usage: tsx bench/text-shape.ts <run folder>');
parsedShape('Warm the model up once.');
let parsed = 0;
let turns = 0;
let cpu = 0;
const lines = createInterface({ input: createReadStream(join(run, 'dialogues/dialogues.jsonl')) });
for await (const line of lines) {
  const dialogue = JSON.parse(line) as {
    sessions: Array<{ turns: Array<{ speaker: string; round: number; text: string }> }>;
  };
  for (const session of dialogue.sessions)
    for (const turn of session.turns) {
      turns++;
      if (turn.round % (turn.speaker === 'user' ? PARSE_USER_EVERY : PARSE_EVERY) !== 0) continue;
      const before = process.cpuUsage();
      parsedShape(turn.text);
      const used = process.cpuUsage(before);
      cpu += (used.user + used.system) / 1000;
      parsed++;
    }
}
console.log(
  JSON.stringify({
    run,
    turns,
    parsed,
    cpuMs: Math.round(cpu),
    msPerParsedTurn: Number((cpu / Math.max(1, parsed)).toFixed(3)),
  }),
);
