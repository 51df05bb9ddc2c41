import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors/index.js';
import { samplePersonas } from '../../src/persona/index.js';
import { Persona } from '../../src/schemas/persona.js';
import { PersonasConfig } from '../../src/schemas/personas-config.js';
import { type HubServer, startHubServer } from '../support/hub-server.js';

const TOKEN = 'hf_testtoken123';
const LINES = Array.from({ length: 60 }, (_, index) => ({
  persona: `A ${['nurse', 'farmer', 'software engineer', 'retired pilot', 'museum curator'][index % 5]} who keeps bees (#${index})`,
}));
const TEXT = `${LINES.map((line) => JSON.stringify(line)).join('\n')}\n`;

let hub: HubServer;
let cacheDir = '';
beforeAll(async () => {
  hub = await startHubServer({
    repo: 'proj-persona/PersonaHub',
    files: { 'persona.jsonl': TEXT },
    token: TOKEN,
  });
});
afterAll(async () => {
  await hub.close();
});
afterEach(async () => {
  if (cacheDir !== '') await rm(cacheDir, { recursive: true, force: true });
  cacheDir = '';
});

function hubConfig(extra: Record<string, unknown> = {}) {
  return PersonasConfig.parse({
    source: 'hub',
    train: 10,
    test: 5,
    hub: { hubUrl: hub.url, tokenEnv: 'PF_TEST_HF_TOKEN', ...extra },
  });
}

describe('hub persona source (local Hub stand-in, real @huggingface/hub)', () => {
  it('downloads once with the token, stream-parses and samples; a second run makes no request', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'pf-hub-cache-'));
    const env = { PF_TEST_HF_TOKEN: TOKEN };
    const before = hub.requests.length;
    const first = await samplePersonas(hubConfig(), { seed: 4, cacheDir, env });
    const made = hub.requests.slice(before);
    expect(
      made.map((request) => `${request.method} ${request.path.split('/').slice(0, 3).join('/')}`),
    ).toEqual([
      'POST /api/datasets',
      'GET /datasets/proj-persona',
      'GET /cdn-lfs/' + made[2]?.path.split('/')[2],
      'GET /cdn-lfs/' + made[3]?.path.split('/')[2],
    ]);
    for (const request of made) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(first).toHaveLength(15);
    for (const user of first) {
      Persona.parse(user.persona);
      expect(user.persona.source).toBe('hub');
      expect(user.persona.id).toMatch(/^hub:proj-persona\/PersonaHub\/persona\.jsonl#L\d+$/);
      expect(TEXT).toContain(user.persona.description);
    }
    expect(new Set(first.map((u) => u.persona.id)).size).toBe(15);

    const count = hub.requests.length;
    const second = await samplePersonas(hubConfig(), { seed: 4, cacheDir, env });
    expect(hub.requests.length).toBe(count);
    expect(second).toEqual(first);
  });

  it('refresh: true re-resolves the revision but reuses the cached blob', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'pf-hub-cache-'));
    const env = { PF_TEST_HF_TOKEN: TOKEN };
    await samplePersonas(hubConfig(), { seed: 1, cacheDir, env });
    const count = hub.requests.length;
    await samplePersonas(hubConfig({ refresh: true }), { seed: 1, cacheDir, env });
    expect(hub.requests.slice(count).map((request) => request.method)).toEqual(['POST']);
  });

  it('sends no Authorization header without a token, and reports the 401 as a HubError', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'pf-hub-cache-'));
    const before = hub.requests.length;
    const error = await samplePersonas(hubConfig(), { seed: 1, cacheDir, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).hint).toContain('PF_TEST_HF_TOKEN');
    expect(hub.requests.slice(before).every((request) => request.headers.authorization === undefined)).toBe(
      true,
    );
  });

  it('uses the injected fetch', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'pf-hub-cache-'));
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    await samplePersonas(hubConfig(), {
      seed: 2,
      cacheDir,
      env: { PF_TEST_HF_TOKEN: TOKEN },
      fetch: counting,
    });
    // paths-info, resolve (its redirect to the CDN is followed inside one fetch call), full download.
    expect(calls).toBe(3);
  });

  it('reads at most maxRecords lines before sampling', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'pf-hub-cache-'));
    const users = await samplePersonas(hubConfig({ maxRecords: 20 }), {
      seed: 3,
      cacheDir,
      env: { PF_TEST_HF_TOKEN: TOKEN },
    });
    expect(users).toHaveLength(15);
    for (const user of users) expect(Number(/#L(\d+)$/.exec(user.persona.id)?.[1])).toBeLessThanOrEqual(20);
  });

  it('rejects a token that is not a Hugging Face token before any request', async () => {
    const before = hub.requests.length;
    const error = await samplePersonas(hubConfig(), {
      seed: 1,
      cacheDir: tmpdir(),
      env: { PF_TEST_HF_TOKEN: 'sk-wrong' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    expect((error as Error).message).toContain('PF_TEST_HF_TOKEN');
    expect(hub.requests.length).toBe(before);
  });

  it('names a missing file in the error', async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'pf-hub-cache-'));
    const error = await samplePersonas(hubConfig({ file: 'missing.jsonl' }), {
      seed: 1,
      cacheDir,
      env: { PF_TEST_HF_TOKEN: TOKEN },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    expect((error as Error).message).toContain('missing.jsonl');
  });
});
