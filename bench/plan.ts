/**
 * Plan-stage throughput: builtin personas → offline enrichment → `buildUserPlan` (with QA
 * targets), on the built-in image pool's metadata. Prints one JSON object of figures.
 *
 *   npx --no-install tsx bench/plan.ts [users]
 */
import { loadavg } from 'node:os';
import type { LlmClient } from '../src/llm/types.js';
import { enrichPersona, generateBuiltinPersonas } from '../src/persona/index.js';
import { buildUserPlan } from '../src/plan/build-user-plan.js';
import { buildImagePool } from '../src/plan/images/index.js';
import type { EnrichedPersona } from '../src/schemas/persona.js';
import { PersonasConfig } from '../src/schemas/personas-config.js';
import { UserPlan } from '../src/schemas/plan.js';
import { resolvePlanSettings } from '../src/schemas/plan-config.js';
import { createRng } from '../src/util/rng.js';

const users = Number(process.argv[2] ?? 2000);
const seed = 42;
const offline = {
  structured: async (_role: string, request: { offline?: () => unknown }) =>
    (request.offline as () => unknown)(),
  isOffline: () => true,
} as unknown as LlmClient;

const personasConfig = PersonasConfig.parse({});
const settings = resolvePlanSettings({});
const images = buildImagePool(settings.images, seed);

let start = performance.now();
const personas = generateBuiltinPersonas(users, seed, personasConfig.builtin);
const enriched: EnrichedPersona[] = [];
for (const [index, persona] of personas.entries()) {
  enriched.push(
    await enrichPersona(persona, {
      llm: offline,
      rng: createRng(seed, 'enrich', index),
      config: personasConfig,
    }),
  );
}
const personaSeconds = (performance.now() - start) / 1000;

const input = (index: number) => ({
  userId: `${index % 3 === 2 ? 'test' : 'train'}-${String(index).padStart(5, '0')}`,
  split: (index % 3 === 2 ? 'test' : 'train') as 'train' | 'test',
  enriched: enriched[index] as EnrichedPersona,
  images,
});
for (let index = 0; index < Math.min(100, users); index++)
  buildUserPlan(input(index), { config: {}, seed: seed + 1 });

start = performance.now();
const cpuStart = process.cpuUsage();
let rounds = 0;
let questions = 0;
let bytes = 0;
// Keep only a sample: the stage streams plans to disk, and retaining thousands of them would
// make the benchmark measure old-generation GC instead of planning.
const sample: UserPlan[] = [];
for (let index = 0; index < users; index++) {
  const plan = buildUserPlan(input(index), { config: {}, seed });
  rounds += plan.sessions.reduce((sum, session) => sum + session.rounds, 0);
  questions += plan.qa.length;
  if (sample.length < 200) sample.push(plan);
}
const planSeconds = (performance.now() - start) / 1000;
// CPU time of this process: the machine is shared, so wall time alone mostly measures contention.
const cpu = process.cpuUsage(cpuStart);
const planCpuSeconds = (cpu.user + cpu.system) / 1e6;
for (const plan of sample) bytes += JSON.stringify(plan).length + 1;

start = performance.now();
for (const plan of sample) UserPlan.parse(plan);
const validateMs = ((performance.now() - start) / sample.length) * 1000;

console.log(
  JSON.stringify({
    users,
    usersPerSecond: Math.round(users / planSeconds),
    usersPerCpuSecond: Math.round(users / planCpuSeconds),
    loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
    usersPerSecondWithOfflineEnrichment: Math.round(users / (planSeconds + personaSeconds)),
    msPerUser: Number(((planSeconds / users) * 1000).toFixed(3)),
    zodValidateMicrosPerUser: Math.round(validateMs),
    avgRounds: Number((rounds / users).toFixed(1)),
    avgQuestions: Number((questions / users).toFixed(1)),
    avgPlanKb: Number((bytes / sample.length / 1024).toFixed(1)),
    imagePool: images.length,
    target: 500,
  }),
);
