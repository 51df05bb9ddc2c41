/**
 * A run under a throttling gateway: the quickstart (4 + 2 users) through the shipped binary
 * against the fake model, fault-free and with 30% 429s carrying Retry-After 1 s. A call waiting
 * out a Retry-After holds no concurrency slot and the limit recovers, so the faulty run costs
 * about the longest chain of waits, not one second per 429.
 * Run: npx --no-install tsx bench/llm-faults.ts
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeLlmServer } from '../src/dev/fake-llm/index.js';
import { runCli } from '../test/support/cli.js';

const repo = resolve(import.meta.dirname, '..');
const work = await mkdtemp(join(tmpdir(), 'pf-bench-faults-'));
const pipeline = join(work, 'p.yaml');
await writeFile(
  pipeline,
  `extends: ${join(repo, 'pipelines/quickstart.yaml')}\npersonas:\n  train: 4\n  test: 2\n`,
);

async function measure(rate: number, out: string) {
  const server = await startFakeLlmServer({
    latencyMs: 20,
    faults: { rate, kinds: ['429'], retryAfterSeconds: 1, seed: 1 },
  });
  const started = performance.now();
  const result = await runCli(work, [
    'run',
    pipeline,
    '--out',
    out,
    '--llm-base-url',
    server.url,
    '--llm-model',
    'fake',
    '--seed',
    String(7 + rate * 100),
  ]);
  const seconds = (performance.now() - started) / 1000;
  const stats = { requests: server.stats.requests, throttled: server.stats.faults['429'] };
  await server.close();
  return { exitCode: result.code, seconds: Math.round(seconds * 10) / 10, ...stats };
}

try {
  const clean = await measure(0, 'clean');
  const throttled = await measure(0.3, 'throttled');
  console.log(
    JSON.stringify({
      bench: 'llm-faults',
      faultFree: clean,
      throttled30pct: throttled,
      // Holding a slot through every 1 s wait at the full limit of 16 would cost throttled/16 s more.
      slotHoldingLowerBoundSeconds: Math.round((throttled.throttled / 16) * 10) / 10,
      slowdown: Math.round((throttled.seconds / clean.seconds) * 10) / 10,
    }),
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
