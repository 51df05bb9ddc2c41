import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectReportData } from '../../src/report/collect.js';
import { renderReport } from '../../src/report/render.js';
import { writeFileAtomic } from '../../src/util/fs.js';
import { buildReportFixture } from '../support/report-fixture.js';

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-report-'));
  await buildReportFixture(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('report.html', () => {
  it('aggregates the run directory', async () => {
    const data = await collectReportData(dir, { maxUsers: 2 });
    expect(data.users).toBe(3);
    expect(data.turnsPerDialogue).toHaveLength(3);
    expect(data.timelines).toHaveLength(2);
    expect(data.personality[0]?.tracked.length).toBeGreaterThan(0);
    expect(data.validation?.failuresByCheck).toMatchObject({ chronology: 2 });
    expect(data.offline).toEqual({ realizer: true });
  });

  it('is self-contained: no scripts, no external references', async () => {
    const html = renderReport(await collectReportData(dir, { maxUsers: 2 }));
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
    expect(html).toContain('Offline:');
  });

  // Rendering needs Debian's chromium (.ci/run installs it); without it there is nothing to render with.
  it.skipIf(chromium === undefined)('draws every chart in headless Chromium', async () => {
    const path = join(dir, 'report.html');
    await writeFileAtomic(path, renderReport(await collectReportData(dir, { maxUsers: 2 })));
    const { chromium: launcher } = await import('playwright-core');
    const browser = await launcher.launch({
      executablePath: chromium as string,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path).href);
      const charts = await page.$$eval('figure[data-chart]', (figures) =>
        figures.map((figure) => {
          const svg = figure.querySelector('svg');
          const box = svg?.getBoundingClientRect();
          const drawn = [...(svg?.querySelectorAll('.mark') ?? [])].filter((mark) => {
            const b = (mark as unknown as { getBBox(): { width: number; height: number } }).getBBox();
            return b.width > 0 || b.height > 0;
          }).length;
          return {
            id: figure.getAttribute('data-chart'),
            width: box?.width ?? 0,
            height: box?.height ?? 0,
            drawn,
          };
        }),
      );
      expect(charts.map((c) => c.id)).toEqual(
        expect.arrayContaining([
          'turns-per-dialogue',
          'multimodal-ratio',
          'timelines',
          'personality-0',
          'preference-mix',
          'qa-tasks',
          'validation',
          'usage-cost',
        ]),
      );
      for (const chart of charts) {
        expect(chart.width, chart.id ?? '').toBeGreaterThan(100);
        expect(chart.height, chart.id ?? '').toBeGreaterThan(50);
        expect(chart.drawn, chart.id ?? '').toBeGreaterThan(0);
      }
    } finally {
      await browser.close();
    }
    expect((await readFile(path, 'utf8')).length).toBeGreaterThan(1000);
  });
});
