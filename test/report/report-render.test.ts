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

const run = { name: 'fixture', offline: { realizer: true } };

describe('report.html', () => {
  it('depends only on the data files: a manifest left by an earlier attempt changes nothing', async () => {
    const before = renderReport(await collectReportData(dir, { maxUsers: 2, run }));
    const manifest = join(dir, 'manifest.json');
    const saved = await readFile(manifest, 'utf8');
    await writeFileAtomic(
      manifest,
      JSON.stringify({ pipeline: { name: 'stale' }, offline: {}, usage: { total: { costUsd: 9 } } }),
    );
    const after = renderReport(await collectReportData(dir, { maxUsers: 2, run }));
    await writeFileAtomic(manifest, saved);
    expect(after).toBe(before);
  });

  it('opens with a red banner and the top reasons when every user was quarantined', async () => {
    const quarantine = join(dir, 'quarantine.jsonl');
    const saved = await readFile(quarantine, 'utf8').catch(() => '');
    const users = ['u0', 'u1', 'u2'];
    const lines = [
      ...users.map((u) => ({
        stage: 'synth',
        inputId: u,
        reason: `user "${u}": the realizer returned missing or empty turns`,
        code: 'SYNTH_FAILED',
      })),
      { stage: 'validate', inputId: 'u0', reason: 'chronology', code: 'VALIDATION_FAILED' },
    ];
    await writeFileAtomic(quarantine, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const data = await collectReportData(dir, { maxUsers: 2, run });
    await writeFileAtomic(quarantine, saved);
    const html = renderReport({ ...data, users: 3, quarantinedUsers: 3 });
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf('class="alarm"')).toBeGreaterThan(-1);
    expect(body.indexOf('class="alarm"')).toBeLessThan(body.indexOf('<section>'));
    expect(html).toMatch(/Nothing usable left: 3 of 3 users were quarantined/);
    expect(html).toMatch(/<td>synth<\/td><td>the realizer returned missing or empty turns<\/td><td>3<\/td>/);
    // A healthy run has no banner.
    expect(renderReport(await collectReportData(dir, { maxUsers: 2, run }))).not.toContain('class="alarm"');
  });

  it('aggregates the run directory', async () => {
    const data = await collectReportData(dir, { maxUsers: 2, run });
    expect(data.users).toBe(3);
    expect(data.turnsPerDialogue).toHaveLength(3);
    expect(data.timelines).toHaveLength(2);
    expect(data.personality[0]?.tracked.length).toBeGreaterThan(0);
    expect(data.validation?.failuresByCheck).toMatchObject({ chronology: 2 });
    expect(data.validation?.fidelity.drift_meaning_errors).toMatchObject({
      value: 1.5,
      target: 0,
      ok: false,
    });
    const html = renderReport(data);
    expect(html).toMatch(
      /<td><code>drift_meaning_errors<\/code><\/td><td>[^<]+<\/td><td>1.5%<\/td><td>≤ 0<\/td><td><strong>off<\/strong><\/td>/,
    );
    expect(data.offline).toEqual({ realizer: true });
  });

  it('is self-contained: no scripts, no external references', async () => {
    const html = renderReport(await collectReportData(dir, { maxUsers: 2, run }));
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
    expect(html).toContain('Offline:');
  });

  // Rendering needs Debian's chromium (.ci/run installs it); without it there is nothing to render with.
  it.skipIf(chromium === undefined)('draws every chart in headless Chromium', async () => {
    const path = join(dir, 'report.html');
    await writeFileAtomic(path, renderReport(await collectReportData(dir, { maxUsers: 2, run })));
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
          'fidelity-defects',
          'fidelity-shapes',
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
