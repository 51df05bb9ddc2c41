/**
 * Reward server benchmark: prints one JSON object of figures. The server runs in this process;
 * load comes from a second process (bench/support/reward-load.ts) over loopback, bounded in requests and
 * time. Phases (issue 8 "Done when"):
 *   format        completions/s in batches of 64 (goal ≥ 20,000)
 *   singleItem    single-item requests/s as a ratio to a bare Node HTTP server (goal ≥ 0.3)
 *   paced         p99 latency at 1,000 req/s
 *   flood         good requests' p99 at 200 req/s while a second process sends 5,000 malformed
 *                 or abusive requests (goal < 50 ms), and the time to refuse a 10 MB body and a
 *                 deeply nested one (goal < 50 ms)
 *   judge         judge-backed reward vs the fake judge at 100 ms: calls/s as a share of the
 *                 concurrency bound (maxConcurrency / latency) (goal ≥ 0.9)
 *   cacheHits     cached judge verdicts served per second (goal ≥ 50,000)
 *
 *   npx --no-install tsx bench/reward.ts
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { startRewardServer } from '../src/reward/index.js';
import { createStubLlm, itemIds } from '../test/reward/support/stub-llm.js';
import { createJudgeBackend } from './support/reward-judge-backend.js';

const loadScript = fileURLToPath(new URL('./support/reward-load.ts', import.meta.url));

interface LoadResult {
  requests: number;
  errors: number;
  elapsedMs: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
}

async function load(job: Record<string, unknown>): Promise<LoadResult> {
  const child = execFile(process.execPath, ['--import', 'tsx', loadScript], { timeout: 60_000 });
  let stdout = '';
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stdin?.end(JSON.stringify(job));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(stdout) as LoadResult;
}

const completion = (index: number) =>
  index % 3 === 0
    ? `<think>The user mentioned painting ${index} times last week.</think><answer>(b)</answer>`
    : index % 3 === 1
      ? `<think>Need memory ${index}.</think><retrieve>{"keywords":"painting ${index}","start_time":"2024-03-01 00:00","end_time":null}</retrieve>`
      : `<think>hmm</think> stray <answer>${index}</answer>`;
const batch = (size: number, offset = 0, reward = 'format') =>
  JSON.stringify({
    reward,
    items: Array.from({ length: size }, (_, i) => ({ completion: completion(offset + i) })),
  });

const figures: Record<string, unknown> = {
  node: process.version,
  cpus: os.cpus().length,
  // The machine is shared: the load average tells how much CPU the figures actually had.
  loadAverageAtStart: os.loadavg()[0],
};

// Phases 1–3 and 5: rule rewards and cache, judge stub answering at once.
// `npx tsx bench/reward.ts judge` (or `rules`) runs one group only.
const only = process.argv[2];
if (only === undefined || only === 'rules') {
  const llm = createStubLlm({
    respond: ({ user }) => ({ results: itemIds(user).map((id) => ({ id, score: 1 })) }),
  });
  const server = await startRewardServer({ llm, port: 0, config: { judge: { batchSize: 64 } } });
  const bare = http.createServer((request, response) => {
    request.on('data', () => {});
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"rewards":[1]}');
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const bodies64 = Array.from({ length: 16 }, (_, i) => batch(64, i * 64));
  await load({
    url: server.url,
    path: '/v1/rewards',
    bodies: bodies64,
    concurrency: 4,
    durationMs: 800,
    maxRequests: 1e6,
  });
  const format = await load({
    url: server.url,
    path: '/v1/rewards',
    bodies: bodies64,
    concurrency: 8,
    durationMs: 5000,
    maxRequests: 200_000,
  });
  figures.format = { batch: 64, completionsPerSec: Math.round(format.rps * 64), goal: 20_000, ...format };

  const single = Array.from({ length: 16 }, (_, i) => batch(1, i));
  // Alternate the two servers and keep each one's best run: the CPU is shared with other work.
  const singleJob = { bodies: single, concurrency: 32, durationMs: 1500, maxRequests: 500_000 };
  const runs = { bare: [] as LoadResult[], reward: [] as LoadResult[] };
  for (let round = 0; round < 4; round++) {
    runs.bare.push(await load({ url: bareUrl, path: '/', ...singleJob }));
    runs.reward.push(await load({ url: server.url, path: '/v1/rewards', ...singleJob }));
  }
  const best = (results: LoadResult[]) => results.reduce((a, b) => (b.rps > a.rps ? b : a));
  const bareRun = best(runs.bare);
  const rewardRun = best(runs.reward);
  figures.singleItem = {
    rewardRps: rewardRun.rps,
    bareNodeRps: bareRun.rps,
    ratio: Math.round((rewardRun.rps / bareRun.rps) * 100) / 100,
    goal: 0.3,
    rewardP99Ms: rewardRun.p99Ms,
  };

  const paced = await load({
    url: server.url,
    path: '/v1/rewards',
    bodies: single,
    concurrency: 64,
    durationMs: 5000,
    maxRequests: 5000,
    rate: 1000,
  });
  figures.paced = { targetRps: 1000, ...paced };

  // Flood: malformed and abusive bodies from one process, paced good requests from another.
  const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
  const malformed = [
    '{"reward": "format", "items": [',
    deep,
    JSON.stringify({ reward: 'constructor', items: [{ completion: 'x' }] }),
    JSON.stringify({ reward: '__proto__', items: [{ completion: 'x' }] }),
    JSON.stringify({ reward: 'toString', items: [{ completion: 'x' }] }),
    JSON.stringify({ reward: 'format', items: [] }),
    JSON.stringify({ reward: 'format', items: [{ completion: 5 }] }),
    JSON.stringify({ reward: ['format'], weights: [1, 2], items: [{ completion: 'x' }] }),
    'null',
    JSON.stringify({ reward: 'format', items: Array.from({ length: 5000 }, () => ({ completion: 'x' })) }),
  ];
  const [flood, good] = await Promise.all([
    load({
      url: server.url,
      path: '/v1/rewards',
      bodies: malformed,
      concurrency: 16,
      durationMs: 20_000,
      maxRequests: 5000,
      anyStatus: true,
    }),
    load({
      url: server.url,
      path: '/v1/rewards',
      bodies: single,
      concurrency: 16,
      durationMs: 20_000,
      maxRequests: 1000,
      rate: 200,
    }),
  ]);
  // Time to the server's answer (the response headers), as a client streaming the body sees it.
  const refuse = async (body: string) => {
    const times: number[] = [];
    let status = 0;
    const target = new URL('/v1/rewards', server.url);
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            hostname: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            times.push(performance.now() - started);
            response.resume();
            resolve(response.statusCode ?? 0);
            request.destroy();
          },
        );
        request.on('error', (error) => (times.length > i ? undefined : reject(error)));
        request.end(body);
      });
    }
    return { status, worstMs: Math.round(Math.max(...times) * 10) / 10 };
  };
  figures.flood = {
    malformed: { requests: flood.requests, statuses: flood.statuses, p99Ms: flood.p99Ms },
    good: { requests: good.requests, errors: good.errors, p99Ms: good.p99Ms, goalP99Ms: 50 },
    body10MB: await refuse(`{"reward":"format","items":[{"completion":"${'x'.repeat(10 * 1024 * 1024)}"}]}`),
    nested: await refuse(deep),
    goalMs: 50,
    pass: good.p99Ms < 50 && good.errors === 0,
    // body10MB and nested are judged against goalMs too (printed, not failed on: the bench never fails).
  };

  // Cache: warm every verdict once, then serve them all from the cache.
  // Every item has an answer, so every item is one judge lookup (a retrieve turn never reaches the judge).
  const cached = Array.from({ length: 8 }, (_, b) =>
    JSON.stringify({
      reward: 'consistency',
      items: Array.from({ length: 256 }, (_, i) => ({
        completion: `<think>The user said ${b * 256 + i}.</think><answer>Answer ${b * 256 + i}</answer>`,
      })),
    }),
  );
  await load({
    url: server.url,
    path: '/v1/rewards',
    bodies: cached,
    concurrency: 1,
    durationMs: 10_000,
    maxRequests: cached.length,
  });
  const before = server.app.judge.stats();
  const hits = await load({
    url: server.url,
    path: '/v1/rewards',
    bodies: cached,
    concurrency: 8,
    durationMs: 5000,
    maxRequests: 100_000,
  });
  const after = server.app.judge.stats();
  figures.cacheHits = {
    batch: 256,
    hitsPerSec: Math.round(((after.cacheHits - before.cacheHits) / hits.elapsedMs) * 1000),
    judgeCallsDuringRun: after.calls - before.calls,
    goal: 50_000,
    p99Ms: hits.p99Ms,
  };
  // The same lookups without HTTP, for scale.
  const judge = server.app.judge;
  const inputs = Array.from({ length: 2048 }, (_, i) => ({
    question: '',
    reasoning: `r${i}`,
    memory: '',
    answer: `a${i}`,
  }));
  await Promise.all(inputs.map((input) => judge.evaluate('consistency', input)));
  const startedLookups = performance.now();
  let lookups = 0;
  while (performance.now() - startedLookups < 1000) {
    for (const input of inputs) void judge.evaluate('consistency', input);
    lookups += inputs.length;
  }
  (figures.cacheHits as Record<string, unknown>).inProcessHitsPerSec = Math.round(
    lookups / ((performance.now() - startedLookups) / 1000),
  );

  await server.close();
  await new Promise((resolve) => bare.close(resolve));
}

// Phase 4: judge-backed reward against a judge answering in 100 ms with a concurrency bound.
if (only === undefined || only === 'judge') {
  const latencyMs = 100;
  const maxConcurrency = 16;
  const batchSize = 8;
  const judgeBackend = await createJudgeBackend({ latencyMs, maxConcurrency });
  const server = await startRewardServer({
    llm: judgeBackend.llm,
    port: 0,
    config: { judge: { batchSize }, cache: { enabled: false } },
  });
  // Ceiling on this machine right now: the llm layer alone against the same judge, no reward server.
  const probeSchema = z.object({ results: z.array(z.object({ id: z.number() }).passthrough()) });
  const probeStarted = performance.now();
  await Promise.all(
    Array.from({ length: 16 * 20 }, (_, i) =>
      judgeBackend.llm.structured('judge', {
        messages: [{ role: 'user', content: `### Item 0\nprobe ${i}` }],
        schema: probeSchema,
        schemaName: 'probe',
      }),
    ),
  );
  const llmAloneCallsPerSec = (16 * 20) / ((performance.now() - probeStarted) / 1000);
  // Unique items (no cache hits): 8 workers × 64 items = 64 judge calls queued, 4× the bound.
  const bodies = Array.from({ length: 400 }, (_, i) => batch(64, 100_000 + i * 64, 'consistency'));
  const before = server.app.judge.stats();
  // Sample how many judge calls wait on the llm layer: ≥ maxConcurrency means the reward server keeps its gate full.
  const pending: number[] = [];
  const sampler = setInterval(() => pending.push(server.app.judge.stats().pendingCalls), 20);
  const result = await load({
    url: server.url,
    path: '/v1/rewards',
    bodies,
    concurrency: 8,
    durationMs: 5000,
    maxRequests: bodies.length,
  });
  clearInterval(sampler);
  const after = server.app.judge.stats();
  const callsPerSec = ((after.calls - before.calls) / result.elapsedMs) * 1000;
  const bound = maxConcurrency / (latencyMs / 1000);
  figures.judge = {
    backend: judgeBackend.label,
    latencyMs,
    maxConcurrency,
    batchSize,
    boundCallsPerSec: bound,
    callsPerSec: Math.round(callsPerSec * 10) / 10,
    itemsPerSec: Math.round(((after.items - before.items) / result.elapsedMs) * 1000),
    shareOfBound: Math.round((callsPerSec / bound) * 1000) / 1000,
    llmLayerAloneCallsPerSec: Math.round(llmAloneCallsPerSec * 10) / 10,
    shareOfLlmLayerAlone: Math.round((callsPerSec / llmAloneCallsPerSec) * 1000) / 1000,
    goal: 0.9,
    failedCalls: after.failedCalls - before.failedCalls,
    meanPendingJudgeCalls:
      Math.round((pending.reduce((a, b) => a + b, 0) / Math.max(1, pending.length)) * 10) / 10,
    requestP99Ms: result.p99Ms,
  };
  await server.close();
  await judgeBackend.close();
}

figures.loadAverageAtEnd = os.loadavg()[0];
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
