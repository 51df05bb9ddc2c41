import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { serveRewards, startRewardServer } from '../../src/reward/index.js';
import { createStubLlm, itemIds } from './support/stub-llm.js';

describe('startRewardServer (real socket)', () => {
  it('binds 127.0.0.1, serves requests with auth, and finishes in-flight requests on close', async () => {
    const llm = createStubLlm({
      respond: ({ user }) =>
        new Promise((resolve) =>
          setTimeout(() => resolve({ results: itemIds(user).map((id) => ({ id, score: 0.9 })) }), 300),
        ),
    });
    const server = await startRewardServer({ llm, port: 0, token: 't0k' });
    expect(server.host).toBe('127.0.0.1');
    const headers = { authorization: 'Bearer t0k', 'content-type': 'application/json' };
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const unauthorized = await fetch(`${server.url}/v1/rewards/functions`);
    expect(unauthorized.status).toBe(401);
    const slow = fetch(`${server.url}/v1/rewards`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        reward: 'consistency',
        items: [{ completion: '<think>a</think><answer>a</answer>' }],
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = server.close();
    const response = await slow;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { rewards: number[] }).rewards).toEqual([0.9]);
    await closed;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});

/** POSTs `chunks` with chunked transfer encoding (no content-length) and resolves the status. */
function postChunked(url: string, chunks: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/v1/rewards`,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe('body limit on a real socket', () => {
  it('answers 413 for a declared or a streamed body over the limit, and scores one under it', async () => {
    const server = await startRewardServer({
      llm: createStubLlm(),
      port: 0,
      config: { limits: { bodyLimitBytes: 2048 } },
    });
    try {
      const big = JSON.stringify({ reward: 'format', items: [{ completion: 'x'.repeat(4096) }] });
      const declared = await fetch(`${server.url}/v1/rewards`, {
        method: 'POST',
        body: big,
        headers: { 'content-type': 'application/json' },
      });
      expect(declared.status).toBe(413);
      expect(await postChunked(server.url, [big.slice(0, 1500), big.slice(1500)])).toBe(413);
      const small = JSON.stringify({
        reward: 'format',
        items: [{ completion: '<think>a</think><answer>b</answer>' }],
      });
      expect(await postChunked(server.url, [small.slice(0, 10), small.slice(10)])).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('serveRewards (persona-forge serve)', () => {
  it('reads the bearer token from --token-env and applies --host/--port over the file', async () => {
    const { server, config } = await serveRewards({
      port: 0,
      tokenEnv: 'PF_REWARD_TOKEN',
      env: { PF_REWARD_TOKEN: 'abc' },
      createLlm: () => createStubLlm(),
    });
    try {
      expect(config.server).toMatchObject({ host: '127.0.0.1', port: 0, tokenEnv: 'PF_REWARD_TOKEN' });
      expect((await fetch(`${server.url}/v1/rewards/functions`)).status).toBe(401);
      const ok = await fetch(`${server.url}/v1/rewards/functions`, {
        headers: { authorization: 'Bearer abc' },
      });
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('builds the llm layer client from the config by default (no judge endpoint: judge unavailable)', async () => {
    const { server } = await serveRewards({ port: 0, env: {} });
    try {
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        judge: { available: boolean };
      };
      expect(health.judge.available).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('refuses to start when --token-env names an unset variable', async () => {
    await expect(
      serveRewards({ port: 0, tokenEnv: 'PF_MISSING', env: {}, createLlm: () => createStubLlm() }),
    ).rejects.toThrow(/PF_MISSING is unset or empty/);
  });
});
