/**
 * LLM layer throughput: structured calls/s through `createLlmClient` (cache off) against the
 * fake server running in a child process (so client and server do not share one event loop).
 *   1. 0 ms latency, concurrency 64: raw calls/s (target ≥ 1,000/s).
 *   2. 100 ms latency, concurrency 64: calls/s as a fraction of the 640/s bound (target ≥ 0.9).
 * Run: npx --no-install tsx bench/llm-throughput.ts
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createLlmClient } from '../src/llm/index.js';
import { LlmConfig } from '../src/schemas/llm-config.js';

const Answer = z.object({
  verdict: z.enum(['yes', 'no']),
  score: z.number().min(0).max(1),
  reason: z.string(),
});
const CONCURRENCY = 64;

if (process.argv[2] === 'serve') {
  const { startFakeLlmServer } = await import('../src/dev/fake-llm/index.js');
  const server = await startFakeLlmServer({ latencyMs: Number(process.argv[3] ?? 0) });
  process.on('message', () => process.send?.({ cpu: process.cpuUsage(), requests: server.stats.requests }));
  process.send?.({ url: server.url });
} else {
  const results: Record<string, unknown> = {};
  const zero = await measure(0, 4_000);
  results.zeroLatency = { ...zero, targetCallsPerSecond: 1000, pass: zero.callsPerSecond >= 1000 };
  const slow = await measure(100, 3_000);
  const bound = (CONCURRENCY * 1000) / 100;
  const fraction = slow.callsPerSecond / bound;
  results.latency100ms = {
    ...slow,
    boundCallsPerSecond: bound,
    fractionOfBound: round(fraction),
    targetFraction: 0.9,
    pass: fraction >= 0.9,
  };
  results.loadAverage = os.loadavg().map(round);
  results.cpus = os.cpus().length;
  console.log(JSON.stringify(results, null, 2));
}

interface Measured {
  calls: number;
  seconds: number;
  callsPerSecond: number;
  concurrency: number;
  /** CPU time per call in this process (client) and in the fake server: load-independent cost. */
  clientCpuMsPerCall: number;
  serverCpuMsPerCall: number;
  /** Calls/s two dedicated cores could sustain given those CPU costs (client and server each own one). */
  cpuBoundCallsPerSecond: number;
}

async function measure(latencyMs: number, calls: number): Promise<Measured> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve', String(latencyMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const url = await new Promise<string>((resolve) =>
      child.once('message', (message) => resolve((message as { url: string }).url)),
    );
    const config = LlmConfig.parse({
      endpoints: {
        fake: { baseUrl: url, model: 'fake-model', maxConcurrency: CONCURRENCY, timeoutMs: 10_000 },
      },
      roles: { judge: 'fake' },
      cache: { enabled: false },
    });
    const llm = createLlmClient(config);
    const call = (index: number) =>
      llm.structured('judge', {
        messages: [
          { role: 'user', content: `Is statement ${index} consistent with the persona? Answer as JSON.` },
        ],
        schema: Answer,
        schemaName: 'verdict',
        stage: 'bench',
      });
    const serverCpu = () =>
      new Promise<number>((resolve) => {
        child.once('message', (message) => {
          const { cpu } = message as { cpu: NodeJS.CpuUsage };
          resolve((cpu.user + cpu.system) / 1000);
        });
        child.send('cpu');
      });
    await runPool(200, call); // warm-up: connections, JIT
    const serverBefore = await serverCpu();
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    await runPool(calls, call);
    const seconds = (performance.now() - started) / 1000;
    const clientUsage = process.cpuUsage(clientBefore);
    const clientCpuMsPerCall = (clientUsage.user + clientUsage.system) / 1000 / calls;
    const serverCpuMsPerCall = ((await serverCpu()) - serverBefore) / calls;
    return {
      calls,
      seconds: round(seconds),
      callsPerSecond: round(calls / seconds),
      concurrency: CONCURRENCY,
      clientCpuMsPerCall: round(clientCpuMsPerCall),
      serverCpuMsPerCall: round(serverCpuMsPerCall),
      cpuBoundCallsPerSecond: Math.round(1000 / Math.max(clientCpuMsPerCall, serverCpuMsPerCall)),
    };
  } finally {
    child.kill();
  }
}

async function runPool(total: number, call: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) await call(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
