import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCOMO_CATEGORIES, loadEvalSet } from '../../src/eval/index.js';
import { BIN, runCli } from '../support/cli.js';
import { fakeModelArgs } from '../support/fake-llm.js';
import { copySharedRun } from '../support/shared-run.js';

/**
 * `persona-forge eval` as README documents it: the shipped binary against `dev fake-llm --oracle`,
 * which answers the gold answer for a seeded share p of the questions and a wrong one otherwise.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const fixtures = join(repoRoot, 'test/fixtures/eval');
const shared = resolve(repoRoot, '../shared/data');
let work: string;
let evalDir: string;
const servers: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** `persona-forge dev fake-llm --port P --oracle <set> --oracle-rate p`, ready. */
async function oracle(set: string, rate: number, latencyMs = 0): Promise<string> {
  const port = await freePort();
  const args = [
    'dev',
    'fake-llm',
    '--port',
    String(port),
    '--latency',
    String(latencyMs),
    '--oracle',
    set,
    '--oracle-rate',
    String(rate),
  ];
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  await new Promise<void>((ready, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('fake OpenAI-compatible server on')) ready();
    });
    child.on('exit', (code) => fail(new Error(`fake-llm exited ${code}`)));
  });
  return `http://127.0.0.1:${port}/v1`;
}

const evaluate = (set: string, out: string, url: string, extra: string[] = []) =>
  runCli(work, ['eval', set, '--out', out, ...fakeModelArgs(url), ...extra]);

const summaryOf = async (out: string) =>
  JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as {
    rows: Array<{
      format: string;
      by: string;
      group: string;
      n: number;
      score: number;
      low: number;
      high: number;
    }>;
  };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-eval-'));
  // The offline quickstart, run once for every test file that reads it.
  await copySharedRun('quickstart', join(work, 'q'));
  evalDir = join(work, 'q/export/eval');
}, 300_000);
afterAll(async () => {
  for (const child of servers) child.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
});

describe('persona-forge eval against an oracle model', () => {
  it('scores multiple choice within 3 points of the oracle rate, per strategy, and writes the documented outputs', async () => {
    const url = await oracle(evalDir, 0.7);
    for (const strategy of ['full', 'rag', 'agent']) {
      const out = join(work, `mme-${strategy}`);
      const result = await evaluate(evalDir, out, url, ['--strategy', strategy]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/eval: \d+\/\d+ questions, [\d.]+\/s, ETA \d+s/);
      const overall = (await summaryOf(out)).rows.find(
        (row) => row.format === 'persona-mme' && row.by === 'overall',
      );
      expect(Math.abs((overall?.score ?? 0) - 0.7), strategy).toBeLessThanOrEqual(0.03);
      expect(overall?.low).toBeLessThan(overall?.score ?? 0);
      const items = (await readFile(join(out, 'items.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const alignment = (await summaryOf(out)).rows.find((row) => row.by === 'alignment');
      expect(items).toHaveLength((overall?.n ?? 0) + (alignment?.n ?? 0));
      for (const key of [
        'question',
        'strategy',
        'promptTokens',
        'output',
        'retrievals',
        'parsed',
        'score',
        'latencyMs',
      ])
        expect(items[0]).toHaveProperty(key);
      if (strategy === 'agent') {
        // The protocol the RL data trains: <retrieve> first, the memory block back, then <answer>.
        expect(items.every((item) => item.retrievals.length >= 1 && /<answer>/.test(item.output))).toBe(true);
      }
      if (strategy === 'full') expect(items.every((item) => item.promptTokens > 100)).toBe(true);
      expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(
        /\| Explicit Intent Inference \| \d+ \| [\d.]+ \| [\d.]+–[\d.]+ \|/,
      );
      expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('<svg');
    }
  }, 300_000);

  it('reads LoCoMo and PersonaMem in their published shapes; LoCoMo F1 is 1.0 on gold answers in every category', async () => {
    const locomo = join(fixtures, 'locomo-mini.json');
    const out = join(work, 'locomo');
    const url = await oracle(locomo, 1);
    // The same fake answers the judge's prompts (anything that is not an eval question).
    expect((await evaluate(locomo, out, url, ['--judge-base-url', url])).code).toBe(0);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(
      /\| group \| n \| score \| 95% CI \| LLM judge \|/,
    );
    const rows = (await summaryOf(out)).rows.filter((row) => row.format === 'locomo');
    expect(rows.find((row) => row.by === 'overall')?.score).toBe(1);
    expect(
      rows
        .filter((row) => row.by === 'task')
        .map((row) => row.group)
        .sort(),
    ).toEqual(Object.values(LOCOMO_CATEGORIES).sort());
    const questions = join(fixtures, 'personamem/questions_mini.csv');
    const pm = join(work, 'personamem');
    expect((await evaluate(questions, pm, await oracle(questions, 1))).code).toBe(0);
    expect((await summaryOf(pm)).rows.find((row) => row.by === 'overall')?.score).toBe(1);
  }, 300_000);

  it('names the formats it accepts for a file it cannot read', async () => {
    const result = await evaluate(join(repoRoot, 'package.json'), join(work, 'bad'), 'http://127.0.0.1:9/v1');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /is not an evaluation set .*LoCoMo locomo10\.json, PersonaMem questions_\*\.csv .*Persona-MME/,
    );
  });

  it('resumes after kill -9 with the same items, and compare marks a real improvement', async () => {
    const url = await oracle(evalDir, 0.5, 20);
    const out = join(work, 'resume');
    const child = spawn(
      process.execPath,
      [BIN, 'eval', evalDir, '--out', out, ...fakeModelArgs(url), '--concurrency', '2'],
      {
        cwd: work,
        stdio: 'ignore',
      },
    );
    const journal = join(out, 'items.partial.jsonl');
    for (
      let i = 0;
      i < 200 && !(existsSync(journal) && (await readFile(journal, 'utf8')).split('\n').length > 20);
      i++
    )
      await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));
    // Killed mid-run: a journal of finished questions, no items.jsonl yet.
    expect(existsSync(journal)).toBe(true);
    expect(existsSync(join(out, 'items.jsonl'))).toBe(false);
    expect((await evaluate(evalDir, out, url)).code).toBe(0);
    const clean = join(work, 'resume-clean');
    expect((await evaluate(evalDir, clean, url)).code).toBe(0);
    const strip = async (dir: string) =>
      (await readFile(join(dir, 'items.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => {
          const { latencyMs: _latency, ...rest } = JSON.parse(line);
          return rest;
        });
    expect(await strip(out)).toEqual(await strip(clean));

    const better = join(work, 'better');
    expect((await evaluate(evalDir, better, await oracle(evalDir, 0.9))).code).toBe(0);
    const compare = await runCli(work, ['eval', 'compare', clean, better, '--out', join(work, 'cmp')]);
    expect(compare.code, compare.stderr).toBe(0);
    // Oracle rates 0.5 and 0.9: accuracies near them, a difference near 40 points marked real.
    const row =
      /\| persona-mme \| \(overall\) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| \+([\d.]+) \| \+([\d.]+)–\+([\d.]+) \| \*\*≠0\*\* \|/.exec(
        compare.stdout,
      );
    expect(row, compare.stdout).not.toBeNull();
    const [, n, a, b, delta, low] = row!.map(Number);
    expect(n).toBeGreaterThan(100);
    expect(Math.abs(a! - 50)).toBeLessThan(6);
    expect(Math.abs(b! - 90)).toBeLessThan(4);
    expect(delta).toBeCloseTo(b! - a!, 0);
    expect(low).toBeGreaterThan(0);
    expect(existsSync(join(work, 'cmp/compare.html'))).toBe(true);
  }, 300_000);
});

describe.skipIf(!existsSync(shared))('the real published files (../shared/data)', () => {
  it('reads locomo10.json: 10 conversations, 1,986 questions in the paper categories', async () => {
    const [set] = await loadEvalSet(join(shared, 'locomo/locomo10.json'));
    expect(set?.histories.size).toBe(10);
    const counts: Record<string, number> = {};
    for (const item of set?.items ?? []) counts[item.task] = (counts[item.task] ?? 0) + 1;
    expect(counts).toEqual({
      'multi-hop': 282,
      temporal: 321,
      'open-domain': 96,
      'single-hop': 841,
      adversarial: 446,
    });
  });

  it('reads questions_32k.csv: 589 questions with four lettered options and a letter answer', async () => {
    const [set] = await loadEvalSet(join(shared, 'personamem/questions_32k.csv'));
    expect(set?.items).toHaveLength(589);
    for (const item of set?.items ?? []) {
      expect(item.choices).toHaveLength(4);
      expect(item.answer).toMatch(/^\([a-d]\)$/);
    }
  });
});
