import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import {
  createJudge,
  createJudgeCache,
  loadRewardConfig,
  rescoreFile,
  rescoreRollouts,
} from '../../src/reward/index.js';
import { createStubLlm, itemIds } from './support/stub-llm.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'pf-rescore-'));
  dirs.push(dir);
  return dir;
}

describe('rescoreRollouts', () => {
  it('re-scores ms-swift completions.jsonl rows with a new judge and writes the scores beside them', async () => {
    const dir = await tempDir();
    const file = join(dir, 'completions.jsonl');
    const rows = [
      {
        step: 1,
        prompt: 'Which?',
        completion: '<think>t</think><answer>Paris</answer>',
        solution: 'Paris',
        'rewards/PfAccuracy': 0,
      },
      { step: 1, prompt: 'Which?', completion: '<think>t</think><answer>Rome</answer>', solution: 'Paris' },
      {
        step: 2,
        completion: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: '<think>t</think><answer>(b)</answer>' },
        ],
        solution: '(b)',
        choices: ['x', 'y'],
      },
      { step: 2, prompt: 'no solution', completion: '<think>t</think><answer>x</answer>' },
    ];
    await writeFile(file, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    const llm = createStubLlm({
      respond: ({ user }) => ({
        results: itemIds(user).map((id) => ({
          id,
          label: user.split('### Item ')[id + 1]?.includes('RESPONSE: Paris') ? 'CORRECT' : 'WRONG',
        })),
      }),
    });
    const cache = createJudgeCache();
    const judge = createJudge({ llm, cache });
    const functions = (await loadRewardConfig(undefined)).functions;
    const out = join(dir, 'rescored.jsonl');
    const summary = await rescoreRollouts(file, { reward: 'accuracy', judge, functions, out, batchSize: 3 });
    expect(summary).toMatchObject({
      rows: 4,
      mean: { accuracy: 0.6667 },
      nulls: { accuracy: 1 },
      errors: { not_applicable: 1 },
    });
    expect(summary.scorers.accuracy).toBe('rule(mc,binary)+llm-judge(open)');
    const written = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(written.map((row) => row.pf_reward)).toEqual([1, 0, 1, null]);
    expect(written[0]).toMatchObject({ step: 1, 'rewards/PfAccuracy': 0, pf_components: { accuracy: 1 } });
    expect(written[3].pf_errors[0]).toMatchObject({ reward: 'accuracy', code: 'not_applicable' });
    // A second pass replays the cached verdicts: no new judge calls.
    const calls = llm.calls.length;
    const again = await rescoreRollouts(file, { reward: 'accuracy', judge, functions });
    expect(llm.calls.length).toBe(calls);
    expect(again.cacheHits).toBe(2);
  });

  it('rejects a row without a completion, naming the row', async () => {
    const dir = await tempDir();
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, '{"completion":"x"}\n{"prompt":"y"}\n');
    const judge = createJudge({ llm: createStubLlm() });
    const functions = (await loadRewardConfig(undefined)).functions;
    await expect(rescoreRollouts(file, { reward: 'format', judge, functions })).rejects.toThrow(
      /row 2 has no completion/,
    );
  });
});

describe('rescoreFile (persona-forge rescore)', () => {
  it('loads the config, builds the llm layer client and labels offline heuristic scores', async () => {
    const dir = await tempDir();
    const file = join(dir, 'completions.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ prompt: 'Q', completion: '<think>t</think><answer>hotpot</answer>', solution: 'hotpot' })}\n`,
    );
    const config = join(dir, 'rewards.yaml');
    await writeFile(config, 'judge:\n  allowOffline: true\n');
    const out = join(dir, 'out.jsonl');
    const summary = await rescoreFile({
      file,
      reward: ['accuracy', 'format'],
      configPath: config,
      out,
      env: {},
    });
    expect(summary).toMatchObject({ rows: 1, mean: { accuracy: 1, format: 1 }, offline: true });
    expect(summary.scorers.accuracy).toBe('rule(mc,binary)+offline-heuristic(open)');
    expect(JSON.parse(await readFile(out, 'utf8')).pf_reward).toBe(2);
  });
});

describe('loadRewardConfig', () => {
  it('loads the sample configs/rewards.yaml with env interpolation', async () => {
    const config = await loadRewardConfig(resolve(import.meta.dirname, '../../configs/rewards.yaml'), {
      env: { JUDGE_MODEL: 'judge-x' },
      overrides: { server: { port: 0 } },
    });
    expect(config.llm.endpoints.judge?.model).toBe('judge-x');
    expect(config.server).toMatchObject({ host: '127.0.0.1', port: 0 });
    expect(config.functions.personavlm).toEqual({ accuracy: 1, consistency: 1, format: 0.5 });
  });

  it('names the file and the YAML path of a bad value', async () => {
    const dir = await tempDir();
    const file = join(dir, 'rewards.yaml');
    await writeFile(file, 'judge:\n  batchSize: 0\n');
    const error = await loadRewardConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues[0]?.path).toBe('judge.batchSize');
  });
});
