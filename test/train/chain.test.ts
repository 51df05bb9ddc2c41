import { EventEmitter } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecipeError } from '../../src/errors/index.js';
import { chainTraining, type ProgressReporter, planChain, planHandoff } from '../../src/train/index.js';
import { fakeEnv, grpoRecipe, readRecord, sftRecipe, tempDir, writeExport } from './helpers.js';

const quiet: ProgressReporter = { output: () => {}, progress: () => {}, info: () => {}, stop: () => {} };
const argOf = (argv: string[], flag: string) => {
  const i = argv.indexOf(flag);
  return i < 0 ? undefined : argv[i + 1];
};

async function runChain(dir: string, sftOver: Record<string, unknown>, rlOver: Record<string, unknown>) {
  writeExport(dir, { answer_type: 'mc' });
  const record = path.join(dir, 'calls.jsonl');
  const result = await chainTraining(sftRecipe(dir, sftOver), grpoRecipe(dir, 'http://127.0.0.1:9', rlOver), {
    env: fakeEnv(record),
    reporter: quiet,
    pollIntervalMs: 10,
    signals: new EventEmitter(),
    cwd: dir,
  });
  return { result, calls: readRecord(record).filter((r) => r.argv !== undefined) };
}

describe('train chain', () => {
  it("full fine-tune: the RL --model is the SFT run's last checkpoint", async () => {
    const dir = tempDir();
    const { result, calls } = await runChain(dir, {}, {});
    expect(calls.map((c) => c.argv?.[0])).toEqual(['sft', 'rlhf']);
    const last = result.sft?.lastCheckpoint?.path;
    expect(last).toMatch(/out-sft\/v1-\d{8}-\d{6}\/checkpoint-4$/);
    expect(argOf(calls[1]?.argv ?? [], '--model')).toBe(last);
    expect(calls[1]?.argv).not.toContain('--adapters');
    expect(result.handoff.kind).toBe('full');
  });

  it('LoRA: the RL run continues the adapters with --adapters and --ref_adapters on the base model', async () => {
    const dir = tempDir();
    const { result, calls } = await runChain(dir, { tuner: { type: 'lora' } }, { tuner: { type: 'lora' } });
    const last = result.sft?.lastCheckpoint;
    expect(last?.isAdapter).toBe(true);
    const rl = calls[1]?.argv ?? [];
    expect(argOf(rl, '--model')).toBe('Qwen/Qwen2.5-0.5B-Instruct');
    expect(argOf(rl, '--adapters')).toBe(last?.path);
    expect(argOf(rl, '--ref_adapters')).toBe(last?.path);
  });

  it('LoRA + mergeBeforeRl: swift export --merge_lora true, then --model <ckpt>-merged', async () => {
    const dir = tempDir();
    const { result, calls } = await runChain(dir, { tuner: { type: 'lora', mergeBeforeRl: true } }, {});
    const last = result.sft?.lastCheckpoint?.path;
    expect(calls.map((c) => c.argv?.[0])).toEqual(['sft', 'export', 'rlhf']);
    expect(calls[1]?.argv).toEqual(['export', '--adapters', last, '--merge_lora', 'true']);
    expect(argOf(calls[2]?.argv ?? [], '--model')).toBe(`${last}-merged`);
  });

  it('refuses LoRA adapters into a full RL fine-tune without merging', () => {
    const dir = tempDir();
    expect(() =>
      planHandoff(sftRecipe(dir, { tuner: { type: 'lora' } }), grpoRecipe(dir, 'http://x:1'), '/c'),
    ).toThrowError(RecipeError);
  });

  it('dry-run plan shows a placeholder checkpoint before the SFT run exists', () => {
    const dir = tempDir();
    const plan = planChain(sftRecipe(dir), grpoRecipe(dir, 'http://127.0.0.1:9'), { cwd: dir });
    const text = plan.lines.join('\n');
    expect(text).toContain('# handoff: full (checkpoint path is a placeholder until the SFT run exists)');
    expect(text).toContain(`--model '${path.join(dir, 'out-sft')}/v<N>-<timestamp>/checkpoint-<last>'`);
  });
});
