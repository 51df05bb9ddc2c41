/**
 * Load generator for bench/reward.ts, run as a second process so the server under test and the
 * client do not share an event loop. Reads one job as JSON from stdin, prints one JSON result.
 *
 *   closed loop: `concurrency` workers send back-to-back requests until `durationMs` or `maxRequests`;
 *   open loop:   `rate` requests/s on a fixed schedule (latency includes queueing), same bounds.
 */
import http from 'node:http';

interface Job {
  url: string;
  path: string;
  /** Request bodies, used round-robin. */
  bodies: string[];
  headers?: Record<string, string>;
  concurrency: number;
  durationMs: number;
  maxRequests: number;
  rate?: number;
  /** Count every answered request (4xx included) as a latency sample: a flood of malformed requests. */
  anyStatus?: boolean;
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input) as Job;
const target = new URL(job.path, job.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
const latencies: number[] = [];
const statuses: Record<string, number> = {};
let errors = 0;
let sent = 0;
const started = performance.now();
const deadline = started + job.durationMs;

function once(body: string): Promise<void> {
  const begin = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...job.headers,
        },
      },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => {
          const status = String(response.statusCode);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (response.statusCode === 200 || job.anyStatus === true)
            latencies.push(performance.now() - begin);
          else errors++;
          resolve();
        });
      },
    );
    request.on('error', () => {
      errors++;
      resolve();
    });
    request.end(body);
  });
}

const next = () => job.bodies[sent++ % job.bodies.length] as string;

if (job.rate === undefined) {
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (performance.now() < deadline && sent < job.maxRequests) await once(next());
    }),
  );
} else {
  const interval = 1000 / job.rate;
  const pending: Array<Promise<void>> = [];
  for (let index = 0; index < job.maxRequests; index++) {
    const due = started + index * interval;
    if (due > deadline) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(once(next()));
  }
  await Promise.all(pending);
}
const elapsedMs = performance.now() - started;
agent.destroy();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) * 1000) /
  1000;
process.stdout.write(
  `${JSON.stringify({
    requests: latencies.length,
    errors,
    elapsedMs: Math.round(elapsedMs),
    rps: Math.round((latencies.length / elapsedMs) * 1000 * 10) / 10,
    p50Ms: pct(0.5),
    p90Ms: pct(0.9),
    p99Ms: pct(0.99),
    maxMs: pct(1),
    statuses,
  })}\n`,
);
