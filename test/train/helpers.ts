import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { Recipe, type RecipeInput } from '../../src/schemas/recipe.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fakeSwiftDir = path.join(repoRoot, 'test/support/fake-swift');

const created: string[] = [];
// Every test file that uses these helpers removes the folders it made.
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp dir for one test (removed after the test file). */
export function tempDir(prefix = 'pf-train-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** An environment whose PATH starts with the fake `swift` and records calls to `record`. */
export function fakeEnv(record: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: `${fakeSwiftDir}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? '/tmp',
    FAKE_SWIFT_RECORD: record,
    FAKE_SWIFT_INTERVAL_MS: '20',
    ...extra,
  };
  return env;
}

/** Writes `rows` as jsonl, creating parent dirs. */
export function writeJsonlFile(file: string, rows: unknown[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** A persona-forge-like export dir with sft and rl splits (train and test, as `export` writes them). */
export function writeExport(dir: string, rlRow: Record<string, unknown> = {}): string {
  const exportDir = path.join(dir, 'export');
  const messages = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ];
  writeJsonlFile(path.join(exportDir, 'sft/train.jsonl'), [
    { messages, task: 'qa' },
    { messages, task: 'qa' },
  ]);
  writeJsonlFile(path.join(exportDir, 'rl/train.jsonl'), [
    { messages: messages.slice(0, 1), solution: '(b)', task: 'mc', ...rlRow },
    { messages: messages.slice(0, 1), solution: '(a)', task: 'mc', ...rlRow },
  ]);
  writeJsonlFile(path.join(exportDir, 'rl/test.jsonl'), [
    { messages: messages.slice(0, 1), solution: '(c)', task: 'mc', ...rlRow },
  ]);
  return exportDir;
}

type Over = Partial<Record<keyof RecipeInput, unknown>>;

/** A small SFT recipe over `dir` (2 GPUs, 4 steps, checkpoint every 2). */
export function sftRecipe(dir: string, over: Over = {}): Recipe {
  return Recipe.parse({
    name: 't-sft',
    stage: 'sft',
    model: { id: 'Qwen/Qwen2.5-0.5B-Instruct' },
    data: { exportDir: path.join(dir, 'export') },
    hyperparameters: {
      learningRate: 1e-5,
      maxSteps: 4,
      maxLength: 1024,
      saveSteps: 2,
      globalBatchSize: 4,
      perDeviceBatchSize: 1,
    },
    distributed: { gpusPerNode: 2 },
    outputDir: path.join(dir, 'out-sft'),
    preflight: { minFreeDiskGb: 0 },
    ...over,
  });
}

/** A small GRPO recipe over `dir` (2 GPUs, 4 generations, reward server at `serverUrl`). */
export function grpoRecipe(dir: string, serverUrl: string, over: Over = {}): Recipe {
  return Recipe.parse({
    name: 't-grpo',
    stage: 'grpo',
    model: { id: 'Qwen/Qwen2.5-0.5B-Instruct' },
    data: { exportDir: path.join(dir, 'export') },
    hyperparameters: {
      learningRate: 1e-6,
      maxSteps: 2,
      maxLength: 1024,
      perDeviceBatchSize: 2,
      gradientAccumulationSteps: 2,
    },
    grpo: { numGenerations: 4 },
    distributed: { gpusPerNode: 2 },
    rewards: { serverUrl, functions: [{ name: 'accuracy' }, { name: 'format', weight: 0.5 }] },
    environment: { maxRetrievals: 3 },
    outputDir: path.join(dir, 'out-grpo'),
    preflight: { minFreeDiskGb: 0, rewardServerTimeoutMs: 2000 },
    ...over,
  });
}

/** Reads the fake's record file. */
export function readRecord(
  file: string,
): Array<{ argv?: string[]; env?: Record<string, string>; signal?: string }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}
