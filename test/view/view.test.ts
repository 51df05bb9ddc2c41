import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { copySharedRun } from '../support/shared-run.js';
import { type RunningView, startView } from './view-server.js';

/**
 * `persona-forge view` on the offline quickstart run, with one round quarantined by validate
 * (a blocklisted phrase planted in a turn that is a question's evidence), through the shipped
 * binary; the browser part drives Debian's chromium.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const artefacts = join(import.meta.dirname, 'artefacts');

// biome-ignore lint/suspicious/noExplicitAny: run records are read loosely in tests
type Json = Record<string, any>;

let work: string;
let run: string;
/** What the test knows from the run's files, found independently of the viewer. */
let planted: { userId: string; turnId: string; droppedQa: string[] };
let known: { turnId: string; text: string };
let question: { id: string; evidence: string[] };
let users: number;

const lines = async (path: string): Promise<Json[]> =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Json);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-view-'));
  run = join(work, 'run');
  // The offline quickstart, run once for every test file that reads it.
  await copySharedRun('quickstart', run);
  const plans = await lines(join(run, 'plan/plan.jsonl'));
  const dialogues = await lines(join(run, 'dialogues/dialogues.jsonl'));
  users = plans.length;
  // Plant a blocklisted phrase in the second user's first turn that is some question's evidence.
  const plan = plans[1]!;
  const dialogue = dialogues[1]!;
  const evidence = new Set<string>(plan.qa.flatMap((qa: Json) => qa.evidenceSlotIds));
  const turns: Json[] = dialogue.sessions.flatMap((s: Json) => s.turns);
  const target = turns.find(
    (t) => t.speaker === 'user' && t.round > 0 && t.slots.some((id: string) => evidence.has(id)),
  )!;
  target.text += ' Here is my credit card number.';
  planted = {
    userId: dialogue.userId,
    turnId: target.id,
    droppedQa: plan.qa
      .filter((qa: Json) => qa.evidenceSlotIds.some((id: string) => target.slots.includes(id)))
      .map((qa: Json) => qa.id),
  };
  expect(planted.droppedQa.length).toBeGreaterThan(0);
  await writeFile(
    join(run, 'dialogues/dialogues.jsonl'),
    `${dialogues.map((d) => JSON.stringify(d)).join('\n')}\n`,
  );
  const validated = await runCli(repoRoot, ['validate', run, '--quiet']);
  expect(validated.code, validated.stderr).toBe(0);
  // A turn of that user to find on its page: the first of its first session.
  const first = dialogue.sessions[0].turns[0];
  known = { turnId: first.id, text: first.text.replace(/^<image>\s*/, '').slice(0, 60) };
  // A question whose evidence turns stand (not the planted one).
  const slotTurns = new Map<string, string[]>();
  for (const t of turns) for (const id of t.slots) slotTurns.set(id, [...(slotTurns.get(id) ?? []), t.id]);
  const asked = plan.qa
    .map((qa: Json) => ({
      id: qa.id,
      evidence: qa.evidenceSlotIds.flatMap((id: string) => slotTurns.get(id) ?? []),
    }))
    .filter((qa: { evidence: string[] }) => qa.evidence.length > 0 && !qa.evidence.includes(target.id));
  // The one whose evidence sits furthest down the dialogue (the page must scroll there).
  const position = new Map(turns.map((t, i) => [t.id as string, i]));
  const depth = (qa: { evidence: string[] }) => position.get(qa.evidence[0]!) ?? 0;
  question = asked.reduce((a: { evidence: string[] }, b: { evidence: string[] }) =>
    depth(b) > depth(a) ? b : a,
  );
  expect(depth(question)).toBeGreaterThan(turns.length / 2);
}, 300_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('persona-forge view', () => {
  it('keeps its index beside the run, reuses it, and builds it again when the manifest changes', async () => {
    const first = await startView(run);
    await first.stop();
    expect(first.banner).toMatch(
      new RegExp(`${users} users \\(index built in [\\d.]+ s\\) on http://127\\.0\\.0\\.1:\\d+`),
    );
    expect(existsSync(join(run, '.view/index.json'))).toBe(true);
    const second = await startView(run);
    await second.stop();
    expect(second.banner).toContain('(index reused in');
    const manifestPath = join(run, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Json;
    await writeFile(
      manifestPath,
      JSON.stringify({ ...manifest, finishedAt: new Date(0).toISOString() }, null, 2),
    );
    const third = await startView(run);
    await third.stop();
    expect(third.banner).toContain('(index built in');
  }, 120_000);

  it('is read-only, serves only the run images, and names a user it does not know', async () => {
    const view = await startView(run);
    try {
      expect((await fetch(`${view.url}/api/run`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${view.url}/images/..%2f..%2fmanifest.json`)).status).toBe(404);
      const missing = await fetch(`${view.url}/api/user/nobody`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as Json).error).toContain('"nobody"');
      const port = new URL(view.url).port;
      // A page on another name (DNS rebound to 127.0.0.1) gets nothing.
      const rebound = await new Promise<number>((done, fail) =>
        get(
          { host: '127.0.0.1', port, path: '/api/index', headers: { host: `evil.example:${port}` } },
          (res) => {
            res.resume();
            done(res.statusCode ?? 0);
          },
        ).once('error', fail),
      );
      expect(rebound).toBe(403);
      expect((await fetch(`http://localhost:${port}/api/run`)).status).toBe(200);
      const taken = await runCli(work, ['view', run, '--port', port]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain(`127.0.0.1:${port} is in use`);
      expect(taken.stderr).toContain('--port 0');
      const found = (await (
        await fetch(`${view.url}/api/search?text=CREDIT%20card%20number`)
      ).json()) as Json;
      expect(found.users).toEqual([planted.userId]);
      const index = (await (await fetch(`${view.url}/api/index`)).json()) as Json;
      const row = index.users.find((u: Json) => u.userId === planted.userId);
      expect(row).toMatchObject({ quarantine: 'units', flags: expect.arrayContaining(['judge:safety']) });
      expect((await fetch(`${view.url}/api/samples?file=export/sft/train.jsonl&limit=500`)).status).toBe(400);
      expect((await fetch(`${view.url}/api/samples?file=..%2Fmanifest.json`)).status).toBe(404);
      const page = (await (await fetch(`${view.url}/api/user/${planted.userId}`)).json()) as Json;
      const image = page.sessions.flatMap((s: Json) => s.turns).find((t: Json) => t.images.length > 0)
        ?.images[0];
      const served = await fetch(`${view.url}${image.url}`);
      expect(served.headers.get('content-type')).toBe('image/png');
    } finally {
      await view.stop();
    }
  }, 60_000);

  it('names the file, line and field of a malformed quarantine record', async () => {
    const bad = join(work, 'bad');
    await mkdir(join(bad, 'plan'), { recursive: true });
    await writeFile(join(bad, 'plan/plan.jsonl'), await readFile(join(run, 'plan/plan.jsonl')));
    await writeFile(join(bad, 'quarantine.jsonl'), '{"stage":"validate","reason":"x"}\n');
    const result = await runCli(work, ['view', bad, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/quarantine\.jsonl line 1 \(inputId\)/);
  });

  it('refuses a folder that holds no run', async () => {
    const empty = join(work, 'empty');
    await mkdir(empty);
    const result = await runCli(work, ['view', empty, '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no user records');
  });

  it.skipIf(chromium === undefined)(
    'in Chromium: index → user → a known turn → a question lands on its evidence → the quarantined round',
    async () => {
      await mkdir(artefacts, { recursive: true });
      const view: RunningView = await startView(run);
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
        const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
        const external: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(view.url)) external.push(request.url());
        });
        const inView = (selector: string) =>
          page.locator(selector).evaluate((el) => {
            const box = el.getBoundingClientRect();
            return box.bottom > 0 && box.top < window.innerHeight;
          });

        // The index: every user; the quarantine filter leaves the one with a removed round.
        await page.goto(view.url);
        await expect.poll(() => page.locator('#rows tr').count()).toBe(users);
        await page.screenshot({ path: join(artefacts, 'index.png') });
        await page.selectOption('select[name="quarantine"]', 'units');
        await expect.poll(() => page.locator('#rows tr').count()).toBe(1);
        expect(await page.locator('#rows tr').getAttribute('data-user')).toBe(planted.userId);

        // Follow the user; its first turn is there, as the dialogue file has it.
        await page.locator(`#rows a`).click();
        await page.waitForSelector(`[id="t-${known.turnId}"]`);
        expect(page.url()).toContain(`#/user/${planted.userId}`);
        expect(await page.locator(`[id="t-${known.turnId}"] .text`).textContent()).toContain(known.text);
        expect(await page.locator('figure[data-chart="timeline"] svg .mark').count()).toBeGreaterThan(0);
        expect(await page.locator('.turn img').count()).toBeGreaterThan(0);
        expect(await page.locator('.turn.planned .slot').count()).toBeGreaterThan(0);
        expect(await page.locator('.turn.noise').count()).toBeGreaterThan(0);

        // Memory targets and trajectories, fetched when opened.
        await page.locator('details.lazy[data-task="semantic_write"] summary').click();
        await expect
          .poll(() => page.locator('details.lazy[data-task="semantic_write"] .target').count())
          .toBeGreaterThan(0);
        await page.locator('details.lazy[data-task=""] summary').click();
        await expect.poll(() => page.locator('.trajectory').count()).toBeGreaterThan(0);

        // A question: clicking it lands on its evidence turn.
        await page.locator(`[id="q-${question.id}"]`).click();
        const evidence = `[id="t-${question.evidence[0]}"]`;
        await expect.poll(() => page.locator(evidence).getAttribute('class')).toContain('focus');
        expect(await inView(evidence)).toBe(true);
        await page.screenshot({ path: join(artefacts, 'user-question-evidence.png') });

        // The quarantined round: struck through, with its reason; its question dropped.
        const unit = `[id="t-${planted.turnId}"]`;
        await page.locator(`#removed .unit-link[data-at="${planted.turnId}"]`).click();
        await expect.poll(() => inView(unit)).toBe(true);
        expect(await page.locator(unit).getAttribute('class')).toContain('removed');
        expect(await page.locator(`${unit} del`).textContent()).toContain('credit card number');
        expect(await page.locator(`${unit} .removal`).textContent()).toMatch(/judge:safety.*blocklisted/);
        for (const qa of planted.droppedQa) expect(await page.locator(`[id="q-${qa}"] del`).count()).toBe(1);
        await page.screenshot({ path: join(artefacts, 'user-quarantined-unit.png') });

        // The run page's alarm links to the record behind it.
        await page.goto(`${view.url}/#/run`);
        await page.waitForSelector('#verdict');
        await page.locator('.alarm-item[data-check="judge:safety"] li a').first().click();
        await page.waitForSelector(unit);
        await expect.poll(() => page.locator(unit).getAttribute('class')).toContain('focus');
        await page.goto(`${view.url}/#/run`);
        await page.waitForSelector('#verdict');
        await page.screenshot({ path: join(artefacts, 'run.png'), fullPage: true });

        // Samples: exported rows as chat with token counts.
        await page.goto(`${view.url}/#/samples`);
        await page.locator('.files a.task').first().click();
        await page.waitForSelector('.sample');
        const tokens = await page.locator('.sample .meta strong').first().textContent();
        expect(Number(tokens)).toBeGreaterThan(0);
        await page.screenshot({ path: join(artefacts, 'samples.png') });
        expect(external).toEqual([]);
      } finally {
        await browser.close();
        await view.stop();
      }
    },
    180_000,
  );
});
