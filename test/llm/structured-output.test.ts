import { afterEach, describe, expect, it } from 'vitest';
import { LlmSchemaError } from '../../src/errors/index.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm.js';
import { ask, fakeClient, Verdict } from './helpers.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('structured output over HTTP', () => {
  it.each([
    ['json_schema', {}, 0],
    ['json_object', { supportsJsonSchema: false }, 1],
    ['instructions', { supportsJsonSchema: false, supportsJsonObject: false }, 2],
  ] as const)('answers in %s mode and remembers it per endpoint', async (mode, serverOptions, rejected) => {
    server = await startFakeLlmServer(serverOptions);
    const llm = fakeClient(server.url);
    const first = await llm.structured('judge', ask(1));
    const second = await llm.structured('judge', ask(2));
    expect(Verdict.parse(first)).toEqual(first);
    expect(second.verdict).toBe('consistent');
    expect(llm.endpointStats().fake?.structuredMode).toBe(mode);
    // The fallback is learned once: only the first call hits the unsupported formats.
    expect(server.stats.rejectedFormats).toBe(rejected);
    expect(server.stats.chatRequests).toBe(2 + rejected);
  });

  it('re-asks with the validation error, then succeeds', async () => {
    const seen: string[] = [];
    server = await startFakeLlmServer({
      respond: (request) => {
        seen.push(request.messages[request.messages.length - 1]?.content ?? '');
        return request.index === 0 ? { verdict: 'maybe', score: 2, reasons: ['ok!'] } : undefined;
      },
    });
    const llm = fakeClient(server.url);
    await expect(llm.structured('judge', ask())).resolves.toMatchObject({ verdict: 'consistent' });
    expect(server.stats.chatRequests).toBe(2);
    expect(seen[1]).toContain('verdict');
    expect(seen[1]).toContain('does not match');
  });

  it('gives up after maxSchemaRetries with LlmSchemaError, and safeStructured returns it', async () => {
    server = await startFakeLlmServer({ respond: () => 'I would rather not answer in JSON.' });
    const llm = fakeClient(server.url, { maxSchemaRetries: 2 });
    const error = await llm.structured('judge', ask()).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LlmSchemaError);
    expect((error as LlmSchemaError).attempts).toBe(3);
    expect(server.stats.chatRequests).toBe(3);
    const result = await llm.safeStructured('judge', { ...ask(), maxSchemaRetries: 0 });
    expect(result.ok).toBe(false);
    expect(llm.usage().byStage.validate?.failures).toBe(2);
  });

  it('extracts JSON from prose and code fences in instructions mode', async () => {
    server = await startFakeLlmServer({
      respond: () => 'Sure!\n```json\n{"verdict":"drifted","score":0.5,"reasons":["changed taste"]}\n```',
    });
    const llm = fakeClient(server.url, { structuredOutput: 'instructions' });
    await expect(llm.structured('judge', ask())).resolves.toEqual({
      verdict: 'drifted',
      score: 0.5,
      reasons: ['changed taste'],
    });
    expect(server.stats.byFormat.text).toBe(1);
  });
});
