import { afterAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { PersonaForgeError } from '../../src/errors/index.js';
import { fakeClient } from './helpers.js';

/** A 200 whose body is not an embeddings response is a bad answer: retried, then a retryable error. */
const servers: FakeLlmServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('embeddings behind a faulty proxy', () => {
  it('retries non-JSON and cut 200 bodies and returns the vectors', async () => {
    const server = await startFakeLlmServer({ faults: { rate: 0, script: ['non-json', 'truncated'] } });
    servers.push(server);
    const llm = fakeClient(server.url, { maxSchemaRetries: 3 });
    const vectors = await llm.embed('embedder', ['a cup of jasmine tea', 'a red bicycle']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]?.length).toBeGreaterThan(10);
    expect(server.stats.embeddingRequests).toBeGreaterThanOrEqual(3);
  });

  it('gives up after maxSchemaRetries with LLM_CALL_FAILED (a code the next run retries)', async () => {
    const server = await startFakeLlmServer({
      faults: { rate: 0, script: ['non-json', 'non-json', 'non-json', 'non-json'] },
    });
    servers.push(server);
    const llm = fakeClient(server.url, { maxSchemaRetries: 2 });
    const error = await llm.embed('embedder', ['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersonaForgeError);
    expect((error as PersonaForgeError).code).toBe('LLM_CALL_FAILED');
  });
});
