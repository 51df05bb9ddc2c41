// Offline realizer throughput: 20 users × 500 rounds from the real plan generator.
// Prints one JSON object; target ≥ 5,000 turns/s on a 2-core machine (issue 4).
import { buildUserPlan } from '../src/plan/index.js';
import { createOfflineRealizer, duplicateSentenceRate, realizeDialogue } from '../src/synth/index.js';
import { fixtureImages, fixtureUsers } from '../test/plan/fixtures.js';

const USERS = Number(process.env.USERS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 500);
const images = fixtureImages();
const config = {
  contexts: { long: { rounds: [ROUNDS, ROUNDS] as [number, number] } },
  trainContexts: ['long'],
  testContexts: ['long'],
};
const plans = fixtureUsers(USERS, 11).map((user) => buildUserPlan({ ...user, images }, { config, seed: 42 }));

async function run(behaviors: boolean) {
  const started = performance.now();
  const dialogues = [];
  for (const plan of plans) {
    dialogues.push(
      await realizeDialogue(plan, {
        realizer: createOfflineRealizer({ seed: 42 }),
        seed: 42,
        config: { behaviors: { enabled: behaviors } },
      }),
    );
  }
  return { dialogues, seconds: (performance.now() - started) / 1000 };
}

await run(true); // warm-up (JIT, template compilation)
const timed = await run(true);
const dialoguesOnly = await run(false);
const turns = timed.dialogues.reduce((n, d) => n + d.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
const rates = timed.dialogues.map(
  (d) => duplicateSentenceRate(d.sessions.flatMap((s) => s.turns.map((t) => t.text))).rate,
);
console.log(
  JSON.stringify({
    bench: 'synth-offline',
    users: USERS,
    roundsPerUser: ROUNDS,
    turns,
    seconds: Number(timed.seconds.toFixed(3)),
    turnsPerSecond: Math.round(turns / timed.seconds),
    turnsPerSecondWithoutBehaviors: Math.round(turns / dialoguesOnly.seconds),
    behaviorEvents: timed.dialogues.reduce((n, d) => n + d.behaviors.length, 0),
    duplicateSentenceRate: {
      mean: Number((rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(4)),
      max: Number(Math.max(...rates).toFixed(4)),
    },
    target: { turnsPerSecond: 5000, duplicateSentenceRate: 0.05 },
  }),
);
