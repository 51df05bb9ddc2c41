import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Hostile input through the shipped binary: bad stage lists, builtin names as rewards, open binds. */
const repoRoot = resolve(import.meta.dirname, '../..');
const BIN = join(repoRoot, 'bin/persona-forge.js');
const exec = promisify(execFile);
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-hardening-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function pf(args: string[], env: Record<string, string | undefined> = process.env) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { cwd: work, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pipeline stage lists', () => {
  it.each([
    ['[export, plan]', /stages\.1.*"plan" cannot come after "export"/],
    ['[plan, plan, synth]', /stages\.1.*"plan" is listed twice/],
  ])('stages: %s is refused with the path and the rule', async (stages, message) => {
    const file = join(work, `stages-${stages.replace(/\W+/g, '-')}.yaml`);
    await writeFile(file, `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\nstages: ${stages}\n`);
    const result = await pf(['run', file, '--out', join(work, 'never')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});

describe('reward server', () => {
  let child: ReturnType<typeof spawn>;
  let url: string;
  let stderr = '';
  beforeAll(async () => {
    const port = await new Promise<number>((done) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address();
        s.close(() => done(typeof a === 'object' && a !== null ? a.port : 0));
      });
    });
    const config = join(work, 'rewards.yaml');
    await writeFile(
      config,
      `extends: ${join(repoRoot, 'configs/rewards.yaml')}\njudge:\n  allowOffline: true\n`,
    );
    // Beyond loopback and without a token: it starts, with a warning.
    child = spawn(
      process.execPath,
      [BIN, 'serve', '--config', config, '--host', '0.0.0.0', '--port', String(port)],
      {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200; i++) {
      if (
        await fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 30_000);
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('warns when it listens beyond loopback without a token', () => {
    expect(stderr).toMatch(/warning: the reward server listens on 0\.0\.0\.0 without a token/);
  });

  it('deep nesting and a 10 MB body are refused with 4xx; a good request still scores', async () => {
    const post = async (body: string) => {
      const started = performance.now();
      const response = await fetch(`${url}/v1/rewards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await response.text();
      return { status: response.status, ms: performance.now() - started };
    };
    const deep = await post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(deep.status).toBe(400);
    const big = await post(
      JSON.stringify({ reward: 'format', items: [{ completion: 'x'.repeat(10 * 1024 * 1024) }] }),
    );
    expect(big.status).toBe(413);
    const good = await post(
      JSON.stringify({ reward: 'format', items: [{ completion: '<answer>a</answer>' }] }),
    );
    expect(good.status).toBe(200);
  });

  it('keeps scoring good requests correctly while a second process floods it with 5,000 malformed ones', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const malformed = [
      '{"reward": "format", "items": [',
      deep,
      JSON.stringify({ reward: 'constructor', items: [{ completion: 'x' }] }),
      JSON.stringify({ reward: 'format', items: [] }),
      JSON.stringify({ reward: 'format', items: [{ completion: 5 }] }),
      'null',
    ];
    const flood = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'bench/support/reward-load.ts')],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    let floodOut = '';
    flood.stdout?.on('data', (c: Buffer) => {
      floodOut += c.toString();
    });
    flood.stdin?.end(
      JSON.stringify({
        url,
        path: '/v1/rewards',
        bodies: malformed,
        concurrency: 16,
        durationMs: 60_000,
        maxRequests: 5000,
        anyStatus: true,
      }),
    );
    const done = new Promise<number | null>((resolve) => flood.on('close', resolve));
    // Good requests all through the flood: every one answered 200 with the right score.
    const good = ['<think>x</think><answer>a</answer>', 'no tags'];
    let answered = 0;
    let floodEnded = false;
    void done.then(() => {
      floodEnded = true;
    });
    while (!floodEnded || answered < 20) {
      const index = answered % 2;
      const response = await fetch(`${url}/v1/rewards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reward: 'format', items: [{ completion: good[index] }] }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { rewards: number[] }).rewards).toEqual([index === 0 ? 1 : 0]);
      answered++;
    }
    expect(await done).toBe(0);
    const result = JSON.parse(floodOut) as { requests: number; statuses: Record<string, number> };
    expect(result.requests).toBe(5000);
    // Every malformed request got a 4xx, none a 5xx or a dropped connection.
    expect(Object.keys(result.statuses).every((status) => status.startsWith('4'))).toBe(true);
    expect(answered).toBeGreaterThan(20);
  }, 120_000);

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'reward name %s is a 4xx, not a 500',
    async (name) => {
      const response = await fetch(`${url}/v1/rewards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reward: name, items: [{ completion: '<answer>a</answer>', solution: 'a' }] }),
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    },
  );
});
