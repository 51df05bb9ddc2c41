/**
 * Persona and image-pool throughput on this machine (offline): prints one JSON object.
 * Run: npx --no-install tsx bench/personas.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LlmClient, StructuredRequest } from '../src/llm/types.js';
import { countBuiltinCombinations, enrichPersona, samplePersonas } from '../src/persona/index.js';
import { buildImagePool, writeImagePool } from '../src/plan/images/index.js';
import { ImagesConfig } from '../src/schemas/images-config.js';
import { PersonasConfig } from '../src/schemas/personas-config.js';
import { createRng } from '../src/util/rng.js';

/** The offline backend's behaviour for structured calls: answer with the request's producer. */
const offline = {
  structured: async <T>(_role: string, request: StructuredRequest<T>) => (request.offline as () => T)(),
  isOffline: () => true,
} as unknown as LlmClient;

const config = PersonasConfig.parse({});
let start = performance.now();
const users = await samplePersonas(config, { seed: 42 });
const sampleMs = performance.now() - start;

start = performance.now();
for (const user of users)
  await enrichPersona(user.persona, { llm: offline, rng: createRng(42, user.userId), config });
const enrichMs = performance.now() - start;

const imagesConfig = ImagesConfig.parse({});
start = performance.now();
const pool = buildImagePool(imagesConfig, 42);
const poolMs = performance.now() - start;

const dir = await mkdtemp(join(tmpdir(), 'pf-bench-images-'));
start = performance.now();
await writeImagePool(pool.slice(0, 100), dir, { pixels: imagesConfig.pixels });
const renderMs = performance.now() - start;
await rm(dir, { recursive: true, force: true });

console.log(
  JSON.stringify({
    builtinCombinations: countBuiltinCombinations(config.builtin),
    builtinUsers: users.length,
    builtinUsersPerSecond: Math.round(users.length / (sampleMs / 1000)),
    offlineEnrichmentsPerSecond: Math.round(users.length / (enrichMs / 1000)),
    imagePoolMetadataPerSecond: Math.round(pool.length / (poolMs / 1000)),
    pngScenesRenderedPerSecond: Math.round(100 / (renderMs / 1000)),
    pngPixels: imagesConfig.pixels,
  }),
);
