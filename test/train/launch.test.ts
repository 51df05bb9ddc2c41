import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrainingJobError } from '../../src/errors/index.js';
import {
  latestCheckpoint,
  launchTraining,
  type ProgressEvent,
  type ProgressReporter,
  type RunRecord,
} from '../../src/train/index.js';
import { fakeEnv, readRecord, sftRecipe, tempDir, writeExport } from './helpers.js';

function collectingReporter() {
  const events: ProgressEvent[] = [];
  const output: string[] = [];
  const info: string[] = [];
  const reporter: ProgressReporter = {
    output: (c) => output.push(c),
    progress: (e) => events.push(e),
    info: (l) => info.push(l),
    stop: () => {},
  };
  return { reporter, events, output, info };
}

describe('launchTraining with the fake swift', () => {
  it('runs swift sft with the built argv and env, parses progress and records checkpoints', async () => {
    const dir = tempDir();
    writeExport(dir);
    const record = path.join(dir, 'calls.jsonl');
    const { reporter, events, output } = collectingReporter();
    const recipe = sftRecipe(dir);
    const result = await launchTraining(recipe, {
      env: fakeEnv(record),
      reporter,
      pollIntervalMs: 10,
      signals: new EventEmitter(),
      cwd: dir,
    });
    const [call] = readRecord(record);
    expect(call?.argv?.slice(0, 3)).toEqual(['sft', '--model', 'Qwen/Qwen2.5-0.5B-Instruct']);
    expect(call?.argv?.join(' ')).toContain(`--dataset ${path.join(dir, 'export/sft/train.jsonl')}`);
    expect(call?.env).toMatchObject({
      NPROC_PER_NODE: '2',
      CUDA_VISIBLE_DEVICES: '0,1',
      NNODES: '1',
      NODE_RANK: '0',
    });
    expect(output.join('')).toMatch(/^run sh: /);
    expect(events.map((e) => `${e.step}/${e.maxSteps}`)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(events[0]?.loss).toBe(2);
    expect(events[0]?.learningRate).toBeGreaterThan(0);
    expect(events.at(-1)?.remaining).toBe('0s');
    expect(result.checkpoints.map((c) => c.step)).toEqual([2, 4]);
    expect(result.lastCheckpoint?.path).toMatch(/\/v1-\d{8}-\d{6}\/checkpoint-4$/);
    const saved = JSON.parse(readFileSync(result.recordFile, 'utf8')) as RunRecord;
    expect(saved.status).toBe('succeeded');
    expect(saved.checkpoints.map((c) => c.step)).toEqual([2, 4]);
    expect(saved.runDir).toBe(result.runDir);
    expect(readFileSync(result.logFile, 'utf8')).toContain('global_step/max_steps');
  });

  it('a failing run throws TrainingJobError with the command and the stderr tail', async () => {
    const dir = tempDir();
    writeExport(dir);
    const record = path.join(dir, 'calls.jsonl');
    const { reporter } = collectingReporter();
    const run = launchTraining(sftRecipe(dir), {
      env: fakeEnv(record, {
        FAKE_SWIFT_FAIL: '3:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
      }),
      reporter,
      pollIntervalMs: 10,
      signals: new EventEmitter(),
      cwd: dir,
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrainingJobError);
    const e = error as TrainingJobError;
    expect(e.exitCode).toBe(3);
    expect(e.command).toContain('swift sft --model Qwen/Qwen2.5-0.5B-Instruct');
    expect(e.stderrTail).toContain('CUDA out of memory');
    expect(e.message).toContain('CUDA out of memory');
    const saved = JSON.parse(
      readFileSync(path.join(dir, 'out-sft/persona-forge-run.json'), 'utf8'),
    ) as RunRecord;
    expect(saved.status).toBe('failed');
  });

  it('forwards SIGTERM to the swift process group', async () => {
    const dir = tempDir();
    writeExport(dir);
    const record = path.join(dir, 'calls.jsonl');
    const { reporter, events } = collectingReporter();
    const signals = new EventEmitter();
    const run = launchTraining(sftRecipe(dir), {
      env: fakeEnv(record, { FAKE_SWIFT_HANG: '1', FAKE_SWIFT_STEPS: '1' }),
      reporter,
      pollIntervalMs: 10,
      signals,
      cwd: dir,
    }).catch((e: unknown) => e);
    const deadline = Date.now() + 10_000;
    while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(events.length).toBeGreaterThan(0);
    signals.emit('SIGTERM');
    const error = await run;
    expect(error).toBeInstanceOf(TrainingJobError);
    expect(readRecord(record).some((r) => r.signal === 'SIGTERM')).toBe(true);
    expect(signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('--resume passes the highest checkpoint of the newest run directory', async () => {
    const dir = tempDir();
    writeExport(dir);
    const out = path.join(dir, 'out-sft');
    for (const p of [
      'v1-20260101-000000/checkpoint-2',
      'v2-20260102-000000/checkpoint-2',
      'v2-20260102-000000/checkpoint-10',
      'v2-20260102-000000/checkpoint-4',
    ]) {
      mkdirSync(path.join(out, p), { recursive: true });
    }
    mkdirSync(path.join(out, 'v3-20260103-000000'), { recursive: true }); // died before its first save
    writeFileSync(path.join(out, 'v3-20260103-000000/logging.jsonl'), '');
    expect(latestCheckpoint(out)?.path).toBe(path.join(out, 'v2-20260102-000000/checkpoint-10'));
    const record = path.join(dir, 'calls.jsonl');
    const { reporter } = collectingReporter();
    const result = await launchTraining(
      sftRecipe(dir, { hyperparameters: { learningRate: 1e-5, maxSteps: 12, maxLength: 64, saveSteps: 2 } }),
      {
        env: fakeEnv(record),
        reporter,
        pollIntervalMs: 10,
        signals: new EventEmitter(),
        resume: true,
        cwd: dir,
      },
    );
    const argv = readRecord(record)[0]?.argv ?? [];
    expect(argv[argv.indexOf('--resume_from_checkpoint') + 1]).toBe(
      path.join(out, 'v2-20260102-000000/checkpoint-10'),
    );
    expect(result.runDir).toMatch(/\/v4-\d{8}-\d{6}$/);
    expect(result.checkpoints.map((c) => c.step)).toEqual([12]);
  });
});
