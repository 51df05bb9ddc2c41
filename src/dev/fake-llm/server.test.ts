import { afterEach, describe, expect, it } from 'vitest';
import { runFakeLlmCli } from './run-fake-llm-cli.js';
import { type FakeLlmServer, startFakeLlmServer } from './server.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Completion {
  choices: Array<{ message: { content: string } }>;
  usage: Record<string, number>;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('fake OpenAI-compatible server', () => {
  it('lists models and answers plain chat with token usage', async () => {
    server = await startFakeLlmServer({ models: ['m1'] });
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data[0]?.id).toBe('m1');
    const answer = (await (
      await post(`${server.url}/chat/completions`, {
        model: 'm1',
        messages: [{ role: 'user', content: 'one two three' }],
      })
    ).json()) as Completion;
    expect(answer.choices[0]?.message.content).toBe('Fake answer to: one two three');
    expect(answer.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 8 });
    expect(server.stats).toMatchObject({ requests: 2, chatRequests: 1, promptTokens: 8 });
  });

  it('answers json_schema requests with a schema-valid object and 400s when told to', async () => {
    server = await startFakeLlmServer({ supportsJsonObject: false });
    const schema = { type: 'object', properties: { k: { type: 'integer', minimum: 5 } }, required: ['k'] };
    const response = await post(`${server.url}/chat/completions`, {
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 's', schema } },
    });
    expect(JSON.parse(((await response.json()) as Completion).choices[0]?.message.content ?? '')).toEqual({
      k: 5,
    });
    const rejected = await post(`${server.url}/chat/completions`, {
      model: 'm',
      messages: [],
      response_format: { type: 'json_object' },
    });
    expect(rejected.status).toBe(400);
  });

  it('picks the same faults for the same seed', async () => {
    const sequence = async () => {
      const local = await startFakeLlmServer({
        faults: { rate: 0.5, seed: 11, kinds: ['500', '429'], retryAfterMs: 1 },
      });
      const statuses: number[] = [];
      for (let index = 0; index < 12; index++) {
        statuses.push((await post(`${local.url}/chat/completions`, { model: 'm', messages: [] })).status);
      }
      await local.close();
      return statuses;
    };
    const first = await sequence();
    expect(first).toEqual(await sequence());
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('runFakeLlmCli serves on the given port and prints how to use it', async () => {
    const lines: string[] = [];
    server = await runFakeLlmCli({ port: 0, log: (line) => lines.push(line) });
    expect(lines[0]).toContain(server.url);
    expect((await fetch(`${server.url}/models`)).status).toBe(200);
  });
});
