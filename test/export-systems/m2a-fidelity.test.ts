import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportBundle } from '../../src/export/read-run.js';
import { M2aSystemConfig } from '../../src/export/systems/config.js';
import { createM2aBuilder, type M2aBuilt, type M2aTurn } from '../../src/export/systems/index.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { ValidateConfig } from '../../src/schemas/validate-config.js';
import { createFidelityMeter } from '../../src/validate/fidelity.js';
import { inspectM2aSample, m2aSessionsCheck } from '../../src/validate/rules/index.js';
import { indexUser, type RuleOptions } from '../../src/validate/types.js';
import { validateCorpus } from '../../src/validate/validate-corpus.js';
import { makeLocomoFixture } from '../support/locomo-fixture.js';
import { smallCorpus } from './corpus.js';

let runDir: string;
let bundles: ExportBundle[];
const ruleOptions = { config: ValidateConfig.parse({}), imageExists: () => true } as RuleOptions;

async function buildAll(system: Partial<M2aSystemConfig> = {}, synth: Record<string, unknown> = {}) {
  const builder = await createM2aBuilder({
    system: M2aSystemConfig.parse({ enabled: true, ...system }),
    export: ExportConfig.parse({}),
    synth: { concepts: synth },
    seed: 7,
  });
  const built: Array<{ bundle: ExportBundle; result: Exclude<M2aBuilt, { skipped: string }> }> = [];
  for (const bundle of bundles) {
    const result = await builder.build(bundle);
    builder.keep(result);
    if (!('skipped' in result)) built.push({ bundle, result });
  }
  return built;
}

beforeAll(async () => {
  ({ runDir, bundles } = await smallCorpus({ plan: { profile: 'm2a' }, personas: { train: 3, test: 3 } }));
}, 120_000);
afterAll(async () => rm(runDir, { recursive: true, force: true }));

describe('M²A merged conversations say what their labels say', () => {
  it('concept turns are never repeated, session references point at the evidence, 21.4 images per conversation', async () => {
    const hostFile = join(runDir, 'hosts.json');
    await writeFile(hostFile, JSON.stringify([makeLocomoFixture({ sessions: 6, turns: 6 })]));
    for (const system of [{}, { hostFile }]) {
      const built = await buildAll(system);
      expect(built.length).toBeGreaterThan(0);
      let images = 0;
      let refs = 0;
      for (const { result } of built) {
        const seen = inspectM2aSample(result.sample, result.report);
        expect(seen.problems).toEqual([]);
        expect(seen.conceptTurns).toBeGreaterThan(0);
        refs += seen.sessionRefs;
        images += seen.injectedImages;
        // ⌊21.4⌋ or ⌈21.4⌉ photos in every conversation.
        expect([21, 22]).toContain(seen.injectedImages);
      }
      expect(refs).toBeGreaterThan(0);
      expect(Math.abs(images / built.length - 21.4)).toBeLessThanOrEqual(0.6);
    }
  });

  it('images per conversation is a setting', async () => {
    for (const { result } of await buildAll({}, { imagesPerConversation: 9 }))
      expect(inspectM2aSample(result.sample, result.report).injectedImages).toBe(9);
  });

  it('the m2a_sessions rule and the fidelity figures catch a repeated turn and a wrong session number', async () => {
    const { bundle, result } = (await buildAll())[0]!;
    const sample = structuredClone(result.sample);
    const { position } = result.report;
    // A concept turn saying what a host turn says, and a question naming the generation's own
    // session number (the old defect) instead of the merged one.
    const host = (sample.conversation.session_0 as M2aTurn[])[0]!;
    (sample.conversation[`session_${position}`] as M2aTurn[])[1]!.text = host.text;
    const item = sample.qa.find((q) => /session \d+/.test(q.question.text))!;
    const evidenceSession = Number(/^S(\d+):/.exec(item.evidence[0]!)![1]);
    item.question.text = item.question.text.replace(/session \d+/, `session ${evidenceSession - position}`);
    const index = indexUser({ ...bundle, memory: null, m2a: { ...result, sample } });
    const failures = m2aSessionsCheck.run(index, ruleOptions);
    expect(failures.map((f) => f.reason).join('\n')).toMatch(/repeats the text of S0:0/);
    expect(failures.map((f) => f.reason).join('\n')).toMatch(
      /names session \d+ but its evidence is in session/,
    );
    const meter = createFidelityMeter();
    meter.addUser(index, new Map());
    const figures = meter.finish();
    expect(figures.m2a_duplicate_concept_turns).toMatchObject({ ok: false });
    expect(figures.m2a_duplicate_concept_turns!.count).toBeGreaterThanOrEqual(1);
    expect(figures.m2a_session_ref_errors).toMatchObject({ count: 1, ok: false });
    // The clean sample passes.
    expect(m2aSessionsCheck.run(indexUser({ ...bundle, memory: null, m2a: result }), ruleOptions)).toEqual(
      [],
    );
  });

  it('validation builds the samples as export does and reports images per conversation beside the paper', async () => {
    const builder = await createM2aBuilder({
      system: M2aSystemConfig.parse({ enabled: true }),
      export: ExportConfig.parse({}),
      seed: 7,
    });
    const report = await validateCorpus(
      bundles.map((b) => ({ ...b, memory: null })),
      { config: ValidateConfig.parse({}), m2a: { builder, splits: ['train', 'test'] } },
    );
    const built = await buildAll();
    expect(report.fidelity?.m2a_images_per_conversation).toMatchObject({
      target: 21.4,
      unit: 'images',
      of: built.length,
      ok: true,
    });
    expect(report.fidelity?.m2a_session_ref_errors).toMatchObject({ count: 0, ok: true });
    expect(report.rules.m2a_sessions).toMatchObject({ failures: 0 });
  });
});
