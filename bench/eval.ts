/**
 * `persona-forge eval` harness figures (issue: eval):
 *   throughput   questions/s against the fake model at 100 ms latency, concurrency 64 (child
 *                process), as a share of the bound 64 / 0.1 s = 640/s (goal ≥ 0.9)
 *   assembly128k ms per question to assemble a 128k-token `full` prompt from a long history
 *                (goal ≤ 5 ms; token counts are computed once per turn)
 * Run: npx --no-install tsx bench/eval.ts
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleFull, runEval } from '../src/eval/index.js';
import type { EvalItem, EvalSet, EvalTurn } from '../src/eval/types.js';
import { createLlmClient } from '../src/llm/index.js';
import { LlmConfig } from '../src/schemas/llm-config.js';

const WORDS = 'coffee hiking painting garden rain weekend sister guitar movie train office soup'.split(' ');
function history(turns: number): EvalTurn[] {
  return Array.from({ length: turns }, (_, i) => ({
    time: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    speaker: i % 2 === 0 ? 'User' : 'Assistant',
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: Array.from({ length: 40 }, (_, w) => WORDS[(i * 7 + w * 3) % WORDS.length]).join(' '),
    id: `S1:${i + 1}`,
  }));
}
function items(n: number, conversation: string): EvalItem[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `bench:${i}`,
    format: 'persona-mme',
    task: `task-${i % 14}`,
    aspect: null,
    contextLength: '128k',
    conversationId: conversation,
    question: `Question ${i}: which one fits me best?`,
    time: null,
    choices: ['coffee', 'tea', 'juice', 'water'],
    kind: 'mc',
    answer: '(a)',
    category: null,
    historyEnd: null,
  }));
}

if (process.argv[2] === 'serve') {
  const { startFakeLlmServer } = await import('../src/dev/fake-llm/index.js');
  const server = await startFakeLlmServer({
    latencyMs: Number(process.env.PF_BENCH_LATENCY ?? 100),
    respond: () => '<answer>(a)</answer>',
  });
  process.send?.({ url: server.url });
} else {
  const figures: Record<string, unknown> = { node: process.version, cpus: os.cpus().length };
  // Assembly: a 3,000-turn history (≈ 150k tokens), 200 questions at a 128k budget.
  const long = history(3000);
  const questions = items(200, 'c');
  assembleFull(questions[0] as EvalItem, long, 131_072, 512); // first call counts every turn once
  const started = performance.now();
  let tokens = 0;
  for (const item of questions) tokens = assembleFull(item, long, 131_072, 512).tokens;
  const perQuestion = (performance.now() - started) / questions.length;
  figures.assembly128k = {
    msPerQuestion: Math.round(perQuestion * 1000) / 1000,
    promptTokens: tokens,
    goalMs: 5,
    pass: perQuestion <= 5,
  };

  // Throughput against a 100 ms model in a child process.
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: ['--import', 'tsx'],
  });
  const url = await new Promise<string>((resolve) =>
    child.once('message', (m) => resolve((m as { url: string }).url)),
  );
  const out = await mkdtemp(join(os.tmpdir(), 'pf-bench-eval-'));
  try {
    const llm = createLlmClient(
      LlmConfig.parse({
        endpoints: { m: { baseUrl: url, model: 'fake', maxConcurrency: 64 } },
        roles: { eval: 'm' },
      }),
      { cache: false },
    );
    const set: EvalSet = {
      format: 'persona-mme',
      source: 'bench',
      items: items(1280, 'short'),
      histories: new Map([['short', history(40)]]),
    };
    // Warm-up (connections, JIT), then the measured run: steady-state throughput.
    const warm: EvalSet = {
      ...set,
      items: items(256, 'short').map((item) => ({ ...item, id: `warm:${item.id}` })),
    };
    await runEval([warm], {
      out: join(out, 'warm'),
      llm,
      strategy: 'full',
      contextTokens: 32_768,
      concurrency: 64,
    });
    const t0 = performance.now();
    const records = await runEval([set], {
      out,
      llm,
      strategy: 'full',
      contextTokens: 32_768,
      concurrency: 64,
    });
    const seconds = (performance.now() - t0) / 1000;
    const rate = records.length / seconds;
    figures.throughput = {
      questions: records.length,
      perSecond: Math.round(rate * 10) / 10,
      bound: 640,
      share: Math.round((rate / 640) * 1000) / 1000,
      goal: 0.9,
      pass: rate / 640 >= 0.9,
    };
  } finally {
    child.kill();
    await rm(out, { recursive: true, force: true });
  }
  console.log(JSON.stringify(figures));
}
