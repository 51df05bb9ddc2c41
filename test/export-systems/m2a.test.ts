import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportBundle } from '../../src/export/read-run.js';
import { M2aSystemConfig } from '../../src/export/systems/config.js';
import {
  exportM2a,
  type M2aSample,
  type M2aSampleReport,
  type M2aTurn,
} from '../../src/export/systems/index.js';
import { formatLocomoTime, parseLocomoTime } from '../../src/interpolate/host-time.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { makeLocomoFixture } from '../support/locomo-fixture.js';
import { smallCorpus } from './corpus.js';

type Json = Record<string, unknown>;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The user's own LoCoMo copy in the shared folder (absent in a user's clone: the test skips). */
const realLocomo = join(resolve(repoRoot, '../shared'), 'data', 'locomo', 'locomo10.json');

let runDir: string;
let bundles: ExportBundle[];
const exportConfig = ExportConfig.parse({});

async function run(dir: string, system: Partial<M2aSystemConfig> = {}, users = bundles) {
  const summary = await exportM2a(users, dir, {
    system: M2aSystemConfig.parse({ enabled: true, ...system }),
    export: exportConfig,
    seed: 7,
  });
  const merged = JSON.parse(await readFile(join(dir, 'merged.json'), 'utf8')) as M2aSample[];
  const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {
    samples: M2aSampleReport[];
    skipped: Array<{ userId: string; reason: string }>;
  };
  return { summary, merged, report };
}

const sessionsOf = (sample: M2aSample): M2aTurn[][] =>
  Array.from(
    { length: sample.conversation.n_session },
    (_, s) => sample.conversation[`session_${s}`] as M2aTurn[],
  );

/** Host QA whose evidence is all malformed or dangling keeps an empty list (as M²A does) when `lenient`. */
function checkShape(sample: M2aSample, lenient = false) {
  expect(Object.keys(sample).sort()).toEqual(['conversation', 'qa']);
  const sessions = sessionsOf(sample);
  const times = sessions.map((_, s) =>
    parseLocomoTime(String(sample.conversation[`session_${s}_date_time`])),
  );
  for (let s = 1; s < times.length; s++) expect(times[s]!).toBeGreaterThan(times[s - 1]!);
  const ids = new Set<string>();
  for (const [s, turns] of sessions.entries()) {
    for (const [u, turn] of turns.entries()) {
      expect(turn.dia_id).toBe(`S${s}:${u}`);
      expect([0, 1]).toContain(turn.speaker);
      ids.add(turn.dia_id);
    }
  }
  for (const item of sample.qa) {
    expect(item.category).toBeGreaterThanOrEqual(1);
    expect(item.category).toBeLessThanOrEqual(9);
    if (!lenient || item.category >= 5) expect(item.evidence.length, item.question.text).toBeGreaterThan(0);
    for (const id of item.evidence) expect(ids.has(id), `${id} of "${item.question.text}"`).toBe(true);
  }
  const concept = [6, 7, 8, 9].map((c) => sample.qa.filter((q) => q.category === c).length);
  // M²A's 2:3:1:4 mix over 20 concept questions.
  expect(concept).toEqual([4, 6, 2, 8]);
}

beforeAll(async () => {
  ({ runDir, bundles } = await smallCorpus({ plan: { profile: 'm2a' } }));
}, 120_000);
afterAll(async () => rm(runDir, { recursive: true, force: true }));

describe('M²A export into the users’ own dialogues', () => {
  it('writes M²A-shaped samples with increasing session times and resolving evidence', async () => {
    const { summary, merged, report } = await run(join(runDir, 'own'));
    expect(summary.samples + summary.skipped).toBe(bundles.length);
    expect(merged.length).toBeGreaterThan(0);
    for (const sample of merged) checkShape(sample);
    for (const [i, entry] of report.samples.entries()) {
      const sample = merged[i]!;
      // The inserted sessions sit at τ_j and show those times (temporal QA names them).
      entry.times.forEach((time, j) => {
        expect(sample.conversation[`session_${entry.position + j}_date_time`]).toBe(
          formatLocomoTime(Date.parse(time)),
        );
      });
      // Visual QA carries its photo and points at turns showing the concept.
      for (const vqa of sample.qa.filter((q) => q.category === 5)) {
        expect(vqa.question.image).toHaveLength(1);
        const shown = sessionsOf(sample)
          .flat()
          .filter((turn) => turn.images.length > 0)
          .map((turn) => turn.dia_id);
        for (const id of vqa.evidence) expect(shown).toContain(id);
      }
    }
  });

  it('keeps the user’s own turns in order around the inserted sessions', async () => {
    const { merged, report } = await run(join(runDir, 'own-order'));
    const entry = report.samples[0]!;
    const bundle = bundles.find((b) => b.plan.userId === entry.userId)!;
    const texts = sessionsOf(merged[0]!)
      .filter((_, s) => s < entry.position || s >= entry.position + entry.inserted)
      .flat()
      .map((turn) => turn.text);
    const own = bundle.dialogue.sessions
      .slice(0, entry.hostSessions)
      .flatMap((session) => session.turns.map((turn) => turn.text.replace(/<image>\s*/g, '').trim()));
    expect(texts).toEqual(own);
  });

  it('keeps each generation as intermediate/gen_XXXX.json', async () => {
    const { merged, report } = await run(join(runDir, 'gen'));
    const gen = JSON.parse(await readFile(join(runDir, 'gen', 'intermediate', 'gen_0000.json'), 'utf8')) as {
      user_id: string;
      sessions: Array<{ date_time: string }>;
      qa: unknown[];
    };
    expect(gen.user_id).toBe(report.samples[0]!.userId);
    expect(gen.sessions.map((s) => s.date_time)).toEqual(report.samples[0]!.times);
    expect(gen.qa).toHaveLength(20);
    expect(
      existsSync(join(runDir, 'gen', 'intermediate', `gen_${String(merged.length).padStart(4, '0')}.json`)),
    ).toBe(false);
  });

  it('is deterministic', async () => {
    await run(join(runDir, 'a'));
    await run(join(runDir, 'b'));
    const a = await readFile(join(runDir, 'a', 'merged.json'), 'utf8');
    expect(await readFile(join(runDir, 'b', 'merged.json'), 'utf8')).toBe(a);
  });

  it('skips users without enough concepts and says why', async () => {
    const poor = bundles
      .slice(0, 1)
      .map((b) => ({ ...b, plan: { ...b.plan, concepts: b.plan.concepts.slice(0, 1) } }));
    const { merged, report } = await run(join(runDir, 'poor'), {}, poor);
    expect(merged).toEqual([]);
    expect(report.skipped[0]?.reason).toMatch(/concepts with images/);
  });
});

describe('M²A export into a LoCoMo host file', () => {
  it('splices into host records, keeps host turns byte for byte and remaps host evidence', async () => {
    const hosts = [makeLocomoFixture({ sessions: 5 }), makeLocomoFixture({ sessions: 4, turns: 8 })];
    const hostFile = join(runDir, 'host.json');
    await writeFile(hostFile, JSON.stringify(hosts));
    const { merged, report } = await run(join(runDir, 'host'), { hostFile });
    // The m2a plan profile sometimes yields fewer than 3 concepts (reported as skipped).
    expect(merged.length + report.skipped.length).toBe(bundles.length);
    expect(merged.length).toBeGreaterThan(0);
    merged.forEach((sample, i) => {
      checkShape(sample, true);
      const entry = report.samples[i]!;
      const which = Number(entry.host.split('#')[1]);
      expect(entry.host).toBe(`${hostFile}#${which}`);
      const host = hosts[which]!;
      const conversation = host.conversation as Json;
      expect(sample.conversation.speaker_0).toBe(conversation.speaker_a);
      // Host session s (1-based) lands at index s-1 before the insertion point, s-1+N after it.
      const index = (s: number) => (s <= entry.position ? s - 1 : s - 1 + entry.inserted);
      for (let s = 1; conversation[`session_${s}`] !== undefined; s++) {
        const turns = sessionsOf(sample)[index(s)]!;
        const original = conversation[`session_${s}`] as Json[];
        expect(turns.map((t) => t.text)).toEqual(original.map((t) => t.text));
        expect(sample.conversation[`session_${index(s)}_date_time`]).toBe(
          conversation[`session_${s}_date_time`],
        );
      }
      // Well-formed host evidence still points at the same text.
      const hostQa = (host.qa as Json[]).filter(
        (q) =>
          q.category !== 5 &&
          (q.evidence as string[]).every((e) => /^D\d+:\d+$/.test(e)) &&
          q.question !== 'Where did they meet?', // dangling D<last>:99
      );
      for (const q of hostQa) {
        const out = sample.qa.find((item) => item.question.text === q.question)!;
        const want = (q.evidence as string[]).map((e) => {
          const [s, t] = e.slice(1).split(':').map(Number);
          return ((conversation[`session_${s}`] as Json[])[t! - 1] as Json).text;
        });
        const got = out.evidence.map((id) => {
          const [s, u] = id.slice(1).split(':').map(Number);
          return sessionsOf(sample)[s!]![u!]!.text;
        });
        expect(got).toEqual(want);
      }
      // The fixture's malformed and dangling ids are reported, not silently dropped.
      expect(entry.warnings.map((w) => w.value)).toContain('D:3:2');
      expect(sample.qa.find((q) => q.question.text === 'Where did they meet?')?.evidence).toEqual([]);
    });
  });

  it.skipIf(!existsSync(realLocomo))(
    'splices into the real locomo10.json (when present) without touching host turns',
    async () => {
      const hosts = JSON.parse(await readFile(realLocomo, 'utf8')) as Json[];
      const { merged, report } = await run(join(runDir, 'real'), { hostFile: realLocomo });
      expect(merged.length).toBeGreaterThan(0);
      merged.forEach((sample, i) => {
        checkShape(sample, true);
        const entry = report.samples[i]!;
        const conversation = hosts[Number(entry.host.split('#')[1])]!.conversation as Json;
        const hostTexts = Object.keys(conversation)
          .filter((key) => /^session_\d+$/.test(key) && Array.isArray(conversation[key]))
          .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)))
          .flatMap((key) => (conversation[key] as Json[]).map((turn) => turn.text));
        const mergedTexts = sessionsOf(sample)
          .filter((_, s) => s < entry.position || s >= entry.position + entry.inserted)
          .flat()
          .map((turn) => turn.text);
        expect(mergedTexts).toEqual(hostTexts);
      });
    },
  );

  it('refuses a file that is not LoCoMo-shaped', async () => {
    const hostFile = join(runDir, 'bad.json');
    await writeFile(hostFile, JSON.stringify([{ nope: 1 }]));
    await expect(run(join(runDir, 'bad'), { hostFile })).rejects.toThrow(/LoCoMo-format/);
  });
});
