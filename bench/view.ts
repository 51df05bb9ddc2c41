/**
 * `persona-forge view` on a run (the 700-user PersonaVLM run: `npx persona-forge run
 * pipelines/personavlm.yaml --out /tmp/pvlm`): the shipped binary in a child process, the time
 * from start until it serves (index built from scratch, then reused), every user page's time
 * through the HTTP API, and the server's RSS after all of them (sampled from /proc, Linux).
 * Every user page is also drawn in Debian's chromium when it is installed.
 * Issue goals: index ready ≤ 3 s, any user page ≤ 300 ms, server RSS ≤ 300 MB.
 * Run: npx --no-install tsx bench/view.ts <run-dir>
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const repo = resolve(import.meta.dirname, '..');
const runDir = resolve(process.argv[2] ?? '/tmp/h32-pvlm');
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Starts the viewer; resolves when it prints its URL, with the seconds it took. */
async function start(): Promise<{
  pid: number;
  url: string;
  seconds: number;
  indexSeconds: number;
  stop: () => void;
}> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(repo, 'bin/persona-forge.js'), 'view', runDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    const url = /(http:\/\/\S+?)\/?\s/.exec(`${line} `)?.[1];
    if (url !== undefined)
      return {
        indexSeconds: Number(/index \w+ in ([\d.]+) s/.exec(line)?.[1] ?? Number.NaN),
        pid: child.pid as number,
        url,
        seconds: (performance.now() - started) / 1000,
        stop: () => child.kill('SIGTERM'),
      };
  }
  throw new Error('the viewer ended before it served');
}

/** Run in the page (as text: tsx's helpers are not there): ms from routing to the frame after drawing. */
const DRAW = `async (id) => {
  const start = performance.now();
  location.hash = '#/user/' + encodeURIComponent(id);
  const root = document.getElementById('app');
  await new Promise((resolve) => {
    const drawn = () => (root.dataset.page === 'user:' + id ? resolve() : requestAnimationFrame(drawn));
    drawn();
  });
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return performance.now() - start;
}`;

/**
 * Every user page drawn in Debian's chromium (when installed): from setting the route to the
 * frame after the page is drawn, fetch, JSON and DOM included. Null without chromium.
 */
async function browserTimes(url: string, users: string[]): Promise<number[] | null> {
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
  if (executablePath === undefined) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${url}/#/run`);
    await page.waitForSelector('#verdict');
    const times: number[] = [];
    for (const userId of users)
      times.push(Number(await page.evaluate(`(${DRAW})(${JSON.stringify(userId)})`)));
    return times;
  } finally {
    await browser.close();
  }
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

await rm(join(runDir, '.view'), { recursive: true, force: true });
const cold = await start();
cold.stop();
const warm = await start();
try {
  const index = (await (await fetch(`${warm.url}/api/index`)).json()) as { users: Array<{ userId: string }> };
  const times: number[] = [];
  let bytes = 0;
  let peak = rssMb(warm.pid);
  for (const { userId } of index.users) {
    const t = performance.now();
    const response = await fetch(`${warm.url}/api/user/${encodeURIComponent(userId)}`);
    const body = await response.arrayBuffer();
    times.push(performance.now() - t);
    if (!response.ok) throw new Error(`user ${userId}: HTTP ${response.status}`);
    bytes += body.byteLength;
    peak = Math.max(peak, rssMb(warm.pid));
  }
  const browser = await browserTimes(
    warm.url,
    index.users.map((u) => u.userId),
  );
  peak = Math.max(peak, rssMb(warm.pid));
  const t = performance.now();
  await (await fetch(`${warm.url}/api/search?text=${encodeURIComponent('mechanical watch')}`)).json();
  const searchMs = performance.now() - t;
  console.log(
    JSON.stringify(
      {
        runDir,
        users: index.users.length,
        indexReadySeconds: { built: round(cold.seconds, 2), reused: round(warm.seconds, 2) },
        // Of which the index itself (the rest is starting Node and loading the code):
        indexSeconds: { built: round(cold.indexSeconds, 2), reused: round(warm.indexSeconds, 2) },
        userPageMs: {
          p50: round(quantile(times, 0.5)),
          p95: round(quantile(times, 0.95)),
          max: round(Math.max(...times)),
        },
        userPageKb: round(bytes / index.users.length / 1024),
        ...(browser === null
          ? {}
          : {
              userPageInChromiumMs: {
                p50: round(quantile(browser, 0.5)),
                p95: round(quantile(browser, 0.95)),
                max: round(Math.max(...browser)),
              },
            }),
        textSearchMs: round(searchMs),
        serverRssMb: { afterEveryUser: round(rssMb(warm.pid)), peak: round(peak) },
        goals: { indexReadySeconds: 3, userPageMs: 300, serverRssMb: 300 },
      },
      null,
      2,
    ),
  );
} finally {
  warm.stop();
}
