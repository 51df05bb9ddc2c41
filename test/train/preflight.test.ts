import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreflightError } from '../../src/errors/index.js';
import { assertPreflight, runPreflight } from '../../src/train/index.js';
import { fakeEnv, grpoRecipe, sftRecipe, tempDir, writeExport, writeJsonlFile } from './helpers.js';

let server: Server;
let url: string;
const seenAuth: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/health') res.end('{"status":"ok"}');
    else if (req.url === '/v1/rewards/functions') {
      res.end(
        JSON.stringify({
          functions: [
            { name: 'format', description: 'tags', requiredColumns: [] },
            { name: 'accuracy', description: 'judge', requiredColumns: ['solution', 'answer_type'] },
          ],
        }),
      );
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const failures = (report: Awaited<ReturnType<typeof runPreflight>>) =>
  report.checks.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${c.message}`);

describe('runPreflight', () => {
  it('passes for a complete GRPO setup and reports the swift version', async () => {
    const dir = tempDir();
    writeExport(dir, { answer_type: 'mc' });
    const report = await runPreflight(grpoRecipe(dir, url), {
      env: fakeEnv(path.join(dir, 'r.jsonl'), { PERSONA_FORGE_TOKEN: 'tok' }),
      cwd: dir,
    });
    expect(failures(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.name === 'swift')?.message).toMatch(/^ms-swift 4\.5\.2 at /);
    expect(seenAuth).toContain('Bearer tok');
  });

  it('fails for a missing dataset', async () => {
    const dir = tempDir();
    const report = await runPreflight(sftRecipe(dir), { env: fakeEnv(path.join(dir, 'r.jsonl')), cwd: dir });
    expect(report.ok).toBe(false);
    expect(failures(report).join('\n')).toMatch(/dataset: dataset not found: .*export\/sft\/train\.jsonl/);
    expect(() => assertPreflight(report)).toThrowError(PreflightError);
  });

  it("fails for a missing column, counting the reward functions' columns", async () => {
    const dir = tempDir();
    writeExport(dir); // rl rows lack answer_type, which accuracy declares
    const report = await runPreflight(grpoRecipe(dir, url), {
      env: fakeEnv(path.join(dir, 'r.jsonl')),
      cwd: dir,
    });
    expect(failures(report).join('\n')).toMatch(
      /train\.jsonl line 1, line 2: lacks column\(s\) answer_type \(2 rows\)/,
    );
  });

  it('fails for a missing messages column in SFT data', async () => {
    const dir = tempDir();
    writeJsonlFile(path.join(dir, 'export/sft/train.jsonl'), [{ conversations: [] }]);
    const report = await runPreflight(sftRecipe(dir), { env: fakeEnv(path.join(dir, 'r.jsonl')), cwd: dir });
    expect(failures(report).join('\n')).toMatch(/lacks column\(s\) messages/);
  });

  it('fails for an unreachable reward server', async () => {
    const dir = tempDir();
    writeExport(dir, { answer_type: 'mc' });
    const port = await closedPort();
    const report = await runPreflight(grpoRecipe(dir, `http://127.0.0.1:${port}`), {
      env: fakeEnv(path.join(dir, 'r.jsonl')),
      cwd: dir,
    });
    expect(failures(report).join('\n')).toMatch(
      new RegExp(`reward-server: reward server http://127.0.0.1:${port} is unreachable \\(ECONNREFUSED\\)`),
    );
  });

  it('fails for an unknown reward function', async () => {
    const dir = tempDir();
    writeExport(dir, { answer_type: 'mc' });
    const recipe = grpoRecipe(dir, url, {
      rewards: { serverUrl: url, functions: [{ name: 'accuracy' }, { name: 'tree_ops' }] },
    });
    const report = await runPreflight(recipe, { env: fakeEnv(path.join(dir, 'r.jsonl')), cwd: dir });
    expect(failures(report)).toEqual([
      `reward-server: reward server ${url} does not know reward function(s) tree_ops; it serves: format, accuracy`,
    ]);
  });

  it('fails for an indivisible batch', async () => {
    const dir = tempDir();
    writeExport(dir, { answer_type: 'mc' });
    const recipe = grpoRecipe(dir, url, { grpo: { numGenerations: 3 } });
    const report = await runPreflight(recipe, { env: fakeEnv(path.join(dir, 'r.jsonl')), cwd: dir });
    expect(failures(report)).toEqual([
      'command: generation batch 8 (= per-device 2 × 2 GPUs × 1 node × 2 steps per generation) is not divisible by num_generations 3',
    ]);
  });

  it('fails when swift is missing or the wrong major version', async () => {
    const dir = tempDir();
    writeExport(dir);
    const noSwift = await runPreflight(sftRecipe(dir), { env: { PATH: '/nonexistent' }, cwd: dir });
    expect(failures(noSwift).join('\n')).toMatch(/swift: swift not found on PATH/);
    const v3 = await runPreflight(sftRecipe(dir), {
      env: fakeEnv(path.join(dir, 'r.jsonl'), { FAKE_SWIFT_VERSION: '3.12.6' }),
      cwd: dir,
    });
    expect(failures(v3).join('\n')).toMatch(/ms-swift 3\.12\.6 at .*, but the recipe targets 4\.x/);
  });

  it('fails when CUDA_VISIBLE_DEVICES lists fewer GPUs than the layout', async () => {
    const dir = tempDir();
    writeExport(dir);
    const env = fakeEnv(path.join(dir, 'r.jsonl'), { CUDA_VISIBLE_DEVICES: '0' });
    const report = await runPreflight(sftRecipe(dir), { env, cwd: dir });
    expect(failures(report).join('\n')).toMatch(
      /gpus: CUDA_VISIBLE_DEVICES lists 1 GPUs but the layout needs 2 per node/,
    );
  });

  it('fails when the disk is too small', async () => {
    const dir = tempDir();
    writeExport(dir);
    const report = await runPreflight(sftRecipe(dir, { preflight: { minFreeDiskGb: 1e9 } }), {
      env: fakeEnv(path.join(dir, 'r.jsonl')),
      cwd: dir,
    });
    expect(failures(report).join('\n')).toMatch(
      /disk: only .* GiB free at .*; the recipe asks for 1000000000/,
    );
  });
});

describe('reward server auth', () => {
  it('names the token variable when the server refuses', async () => {
    const guarded = createServer((_req, res) => {
      res.statusCode = 401;
      res.end('{}');
    });
    await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
    const guardedUrl = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}`;
    try {
      const dir = tempDir();
      writeExport(dir, { answer_type: 'mc' });
      const report = await runPreflight(grpoRecipe(dir, guardedUrl), {
        env: fakeEnv(path.join(dir, 'r.jsonl')),
        cwd: dir,
      });
      expect(failures(report).join('\n')).toContain(
        'answered HTTP 401: PERSONA_FORGE_TOKEN is not set (rewards.tokenEnv)',
      );
    } finally {
      await new Promise<void>((resolve) => guarded.close(() => resolve()));
    }
  });
});

describe('runPreflight against the real reward server', () => {
  it("fails before training when the server's judge is down (its /health probes the judge)", async () => {
    const { startRewardServer } = await import('../../src/reward/index.js');
    const { createLlmClient } = await import('../../src/llm/index.js');
    const { LlmConfig } = await import('../../src/schemas/llm-config.js');
    const judgePort = await closedPort();
    const llm = createLlmClient(
      LlmConfig.parse({
        endpoints: { judge: { baseUrl: `http://127.0.0.1:${judgePort}/v1`, model: 'judge', maxRetries: 0 } },
        roles: { judge: 'judge' },
      }),
      { cache: false, env: {} },
    );
    const reward = await startRewardServer({ llm, port: 0 });
    try {
      const dir = tempDir();
      writeExport(dir, { answer_type: 'mc' });
      const report = await runPreflight(grpoRecipe(dir, reward.url), {
        env: fakeEnv(path.join(dir, 'r.jsonl')),
        cwd: dir,
      });
      expect(failures(report).join('\n')).toMatch(
        /reward-server: reward server http:\/\/127\.0\.0\.1:\d+ is up but its judge is not available \(judge probe failed: .+\); accuracy need it/,
      );
    } finally {
      await reward.close();
    }
  });
});
