/// <reference lib="dom" />
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRunHeader } from '../../src/report/run-header.js';
import { runCli } from '../support/cli.js';
import { plantSelfNaming } from '../support/self-naming.js';
import { copySharedRun } from '../support/shared-run.js';

/**
 * The report as the page a researcher reads before spending GPU hours, through the shipped
 * binary: a run whose users say their own names (the self_naming figure off target) must open
 * with NO-GO and the alarm in red, and show what it is, the mix, the token lengths and sample rows.
 */
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
let work: string;
let run: string;
let html: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-report-header-'));
  // The quickstart with 4 + 2 users, run once for every test file that reads it.
  run = join(work, 'run');
  await copySharedRun('small', run);
  const clean = await readFile(join(run, 'report.html'), 'utf8');
  expect(clean).toMatch(/data-verdict="go"/);
  // Users who say their own full name: a defect the checks count (self_naming), not a rule failure.
  await plantSelfNaming(run);
  expect((await runCli(work, ['validate', run, '--quiet'])).code).toBe(0);
  expect((await runCli(work, ['report', run, '--quiet'])).code).toBe(0);
  html = await readFile(join(run, 'report.html'), 'utf8');
}, 240_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('report.html go/no-go header', () => {
  it('opens with the verdict, what the run is, and the alarm before any other section', () => {
    const body = html.slice(html.indexOf('<body>'));
    const header = body.indexOf('data-section="run-header"');
    expect(header).toBeGreaterThan(-1);
    expect(header).toBeLessThan(body.indexOf('<section'));
    expect(body).toMatch(
      /data-verdict="no-go"[^>]*><strong>NO-GO<\/strong>: 1 fidelity figure off target: self_naming/,
    );
    expect(body).toMatch(
      /<div class="alarm" role="alert" data-alarms="1">.*self_naming [\d.]+% \(target ≤ 0%/,
    );
    expect(body).toMatch(/<th>seed<\/th><td>42<\/td>/);
    expect(body).toMatch(/<th>config hash<\/th><td><code>[0-9a-f]{16}<\/code>/);
    expect(body).toMatch(/<th>realizer<\/th><td>offline/);
    expect(body).toMatch(/<td>synth<\/td><td>offline<\/td>/);
    // "clean corpus" is never said beside a figure off target.
    expect(body).not.toMatch(/clean corpus/);
    expect(body).toMatch(/1 fidelity figure is off target, see Fidelity/);
  });

  it('shows the exported mix against the configured one, token lengths against max_length, and five rows per task', () => {
    expect(html).toMatch(/<td>sft<\/td><td>reasoning<\/td><td>\d+<\/td><td>[\d.]+%<\/td><td>43.6%<\/td>/);
    expect(html).toMatch(
      /<td><code>export\/sft\/train.jsonl<\/code><\/td><td>\d+<\/td>.*<td>16384<\/td><td>0<\/td>/,
    );
    expect(html).toContain('qwen3');
    const samples = [...html.matchAll(/<tr class="sample-row"><td>(sft|rl)<\/td><td>([^<]+)<\/td>/g)];
    const perTask = new Map<string, number>();
    for (const [, kind, task] of samples)
      perTask.set(`${kind} ${task}`, (perTask.get(`${kind} ${task}`) ?? 0) + 1);
    expect([...perTask.keys()]).toEqual(
      expect.arrayContaining(['sft reasoning', 'sft core_update', 'rl mc']),
    );
    for (const [task, n] of perTask) expect(n, task).toBeLessThanOrEqual(5);
    expect(perTask.get('sft reasoning')).toBe(5);
    // A multiple-choice row shows its gold letter and the turn it rests on.
    expect(html).toMatch(
      /<td>rl<\/td><td>mc<\/td><td><code>[^<]+<\/code><\/td><td>[^<]+<\/td><td>\([a-d]\)<\/td><td>\[\d{4}-\d\d-\d\d \d\d:\d\d\] user: /,
    );
  });

  it('collectRunHeader reads a finished run from its manifest (the data any other view shows)', async () => {
    const header = await collectRunHeader(run);
    expect(header.seed).toBe(42);
    expect(header.verdict).toBe('no-go');
    expect(header.alarms.map((a) => a.name)).toEqual(['self_naming']);
    expect(header.roles.find((r) => r.role === 'realizer')?.offline).toBe(true);
    expect(header.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.skipIf(chromium === undefined)(
    'renders in Chromium: the screenshot shows the red alarm at the top, the header and sample rows',
    async () => {
      const { chromium: launcher } = await import('playwright-core');
      const browser = await launcher.launch({
        executablePath: chromium as string,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        await page.goto(pathToFileURL(join(run, 'report.html')).href);
        const boxes = await page.evaluate(() => {
          const box = (selector: string) => {
            const rect = document.querySelector(selector)?.getBoundingClientRect();
            return rect === undefined
              ? null
              : { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
          };
          return {
            verdict: box('[data-verdict]'),
            alarm: box('[data-alarms]'),
            facts: box('table.facts'),
            samples: document.querySelectorAll('tr.sample-row').length,
            ticks: document.querySelectorAll('svg .tick-label').length,
          };
        });
        // Header, verdict and alarm are on the first screen, in that order.
        expect(boxes.verdict?.y ?? 1e9).toBeLessThan(200);
        expect(boxes.alarm?.y ?? 1e9).toBeGreaterThan(boxes.verdict?.y ?? 0);
        expect((boxes.alarm?.y ?? 1e9) + (boxes.alarm?.height ?? 0)).toBeLessThan(900);
        expect(boxes.facts?.height ?? 0).toBeGreaterThan(100);
        expect(boxes.samples).toBeGreaterThanOrEqual(15);
        expect(boxes.ticks).toBeGreaterThan(20);
        const shot = await page.screenshot();
        await writeFile(join(work, 'report-top.png'), shot);
        // The screenshot itself, read back pixel by pixel: the alarm and the verdict are drawn red.
        const reader = await browser.newPage({ viewport: { width: 1100, height: 900 } });
        await reader.setContent('<canvas id="c" width="1100" height="900"></canvas>');
        const pixels = await reader.evaluate(
          async ({ png, points }) => {
            const image = new Image();
            image.src = `data:image/png;base64,${png}`;
            await image.decode();
            const context = (document.getElementById('c') as HTMLCanvasElement).getContext(
              '2d',
            ) as CanvasRenderingContext2D;
            context.drawImage(image, 0, 0);
            return points.map(([x, y]) => [...context.getImageData(x, y, 1, 1).data]);
          },
          {
            png: shot.toString('base64'),
            points: [
              [Math.round((boxes.alarm?.x ?? 0) + 4), Math.round((boxes.alarm?.y ?? 0) + 4)],
              [Math.round((boxes.verdict?.x ?? 0) + 4), Math.round((boxes.verdict?.y ?? 0) + 4)],
              [5, 5],
            ] as Array<[number, number]>,
          },
        );
        const red = ([r, g, b]: number[]) => (r ?? 0) > 150 && (g ?? 255) < 80 && (b ?? 255) < 80;
        expect(red(pixels[0] as number[]), `alarm pixel ${pixels[0]}`).toBe(true);
        expect(red(pixels[1] as number[]), `verdict pixel ${pixels[1]}`).toBe(true);
        expect(red(pixels[2] as number[]), `page corner ${pixels[2]}`).toBe(false);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
