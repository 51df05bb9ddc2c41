import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProgressReporter, trainChainCommand, trainCommand } from '../../src/train/index.js';
import { fakeEnv, readRecord, repoRoot, tempDir, writeExport } from './helpers.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/health') res.end('{"status":"ok"}');
    else
      res.end(
        JSON.stringify({
          functions: ['format', 'accuracy', 'consistency', 'tree_ops'].map((name) => ({
            name,
            description: name,
            requiredColumns: ['solution'],
          })),
        }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const small = { preflight: { minFreeDiskGb: 0 } };

describe('persona-forge train --dry-run (shipped recipes, fake swift on PATH)', () => {
  it('prints environment, a command beginning with `swift `, the preflight, and exits 0; starts nothing', async () => {
    const dir = tempDir();
    const exportDir = writeExport(dir);
    const record = path.join(dir, 'calls.jsonl');
    let text = '';
    const code = await trainCommand(path.join(repoRoot, 'recipes/personavlm-grpo.yaml'), {
      dryRun: true,
      env: fakeEnv(record, {
        PF_EXPORT_DIR: exportDir,
        PERSONA_FORGE_URL: url,
        PF_OUTPUT_ROOT: path.join(dir, 'out'),
      }),
      overrides: small,
      print: (t) => (text += t),
      cwd: dir,
      nodeRank: 0,
      masterAddr: '10.0.0.1',
    });
    expect(text).toContain('export MASTER_ADDR=10.0.0.1');
    expect(text).toMatch(/^swift rlhf --rlhf_type grpo --model /m);
    expect(text).toContain('# preflight (this node): passed');
    expect(text).toContain('PASS reward-server');
    expect(code).toBe(0);
    // only `swift --version` ran
    expect(readRecord(record).map((r) => r.argv)).toEqual([['--version']]);
  });

  it('exits 1 when preflight fails (no export)', async () => {
    const dir = tempDir();
    let text = '';
    const code = await trainCommand(path.join(repoRoot, 'recipes/personavlm-sft.yaml'), {
      dryRun: true,
      env: fakeEnv(path.join(dir, 'r.jsonl'), { PF_EXPORT_DIR: path.join(dir, 'missing') }),
      overrides: small,
      print: (t) => (text += t),
      cwd: dir,
    });
    expect(code).toBe(1);
    expect(text).toContain('# preflight (this node): FAILED');
    expect(text).toMatch(/FAIL dataset: dataset not found: .*missing\/sft\/train\.jsonl/);
  });

  it('train chain --dry-run prints SFT, handoff and RL commands with both preflights', async () => {
    const dir = tempDir();
    const exportDir = writeExport(dir);
    let text = '';
    const code = await trainChainCommand(
      path.join(repoRoot, 'recipes/memlistener-sft.yaml'),
      path.join(repoRoot, 'recipes/memlistener-dapo.yaml'),
      {
        dryRun: true,
        env: fakeEnv(path.join(dir, 'r.jsonl'), {
          PF_EXPORT_DIR: exportDir,
          PERSONA_FORGE_URL: url,
          PF_OUTPUT_ROOT: path.join(dir, 'out'),
        }),
        overrides: small,
        print: (t) => (text += t),
        cwd: dir,
      },
    );
    expect(text).toContain('# 1. SFT (memlistener-sft)');
    expect(text).toContain('# 2. RL (memlistener-dapo)');
    expect(text).toMatch(
      new RegExp(
        `swift rlhf --rlhf_type grpo --model '${path.join(dir, 'out/memlistener-sft')}/v<N>-<timestamp>/checkpoint-<last>'`,
      ),
    );
    expect(text).toContain('# preflight memlistener-dapo: passed');
    expect(code).toBe(0);
  });
});

describe('persona-forge train (launch, shipped recipes, fake swift)', () => {
  const quiet: ProgressReporter = { output: () => {}, progress: () => {}, info: () => {}, stop: () => {} };

  it('train chain memlistener-sft → memlistener-dapo runs both, DAPO from the SFT checkpoint', async () => {
    const dir = tempDir();
    const exportDir = writeExport(dir);
    const record = path.join(dir, 'calls.jsonl');
    const code = await trainChainCommand(
      path.join(repoRoot, 'recipes/memlistener-sft.yaml'),
      path.join(repoRoot, 'recipes/memlistener-dapo.yaml'),
      {
        env: fakeEnv(record, {
          PF_EXPORT_DIR: exportDir,
          PERSONA_FORGE_URL: url,
          PF_OUTPUT_ROOT: path.join(dir, 'out'),
          FAKE_SWIFT_STEPS: '2',
          CUDA_VISIBLE_DEVICES: '0,1',
        }),
        overrides: small,
        reporter: quiet,
        pollIntervalMs: 10,
        signals: new EventEmitter(),
        cwd: dir,
      },
    );
    expect(code).toBe(0);
    const runs = readRecord(record).filter((r) => r.argv?.[0] !== '--version');
    expect(runs.map((r) => r.argv?.slice(0, 1))).toEqual([['sft'], ['rlhf']]);
    const rl = runs[1]?.argv ?? [];
    expect(rl[rl.indexOf('--model') + 1]).toMatch(/out\/memlistener-sft\/v1-\d{8}-\d{6}\/checkpoint-2$/);
    expect(runs[1]?.env).toMatchObject({ PERSONA_FORGE_URL: url, NPROC_PER_NODE: '2' });
  });
});
