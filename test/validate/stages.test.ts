import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportStage } from '../../src/export/index.js';
import type { StageContext } from '../../src/pipeline/types.js';
import type { QuarantineRecord } from '../../src/schemas/common.js';
import { PipelineConfig } from '../../src/schemas/pipeline.js';
import { ValidationReport } from '../../src/schemas/validate-config.js';
import { createRng } from '../../src/util/rng.js';
import { validateStage } from '../../src/validate/index.js';
import { writeRun } from '../export/write-run.js';
import { DEFECTS } from './defects.js';
import { buildFixtureCorpus } from './fixture.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function context(runDir: string, quarantined: Array<Omit<QuarantineRecord, 'stage'>>): StageContext {
  return {
    runDir,
    seed: 3,
    config: PipelineConfig.parse({
      name: 'stages',
      stages: ['validate', 'export'],
      export: { eval: { splits: ['train', 'test'] } },
    }),
    llm: { isOffline: () => true, modelFor: () => 'offline' } as unknown as StageContext['llm'],
    shard: null,
    rng: (...parts) => createRng(3, ...parts),
    quarantine: (record) => quarantined.push(record),
    progress: () => {},
    signal: new AbortController().signal,
  };
}

describe('validate and export stages', () => {
  it('quarantine failing users through the context, write validation.json and export the rest', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'pf-stages-'));
    dirs.push(runDir);
    const users = buildFixtureCorpus(6);
    DEFECTS.find((defect) => defect.check === 'chronology')!.apply(users[1]!, null);
    await writeRun(runDir, users);
    const quarantined: Array<Omit<QuarantineRecord, 'stage'>> = [];
    const ctx = context(runDir, quarantined);
    const validated = await validateStage.run(ctx);
    expect(validated).toMatchObject({ in: 6, out: 5, quarantined: 1 });
    expect(quarantined).toEqual([
      { inputId: 'user-0001', check: 'chronology', reason: expect.stringContaining('not after') },
    ]);
    const report = ValidationReport.parse(
      JSON.parse(await readFile(join(runDir, 'validation.json'), 'utf8')),
    );
    expect(report.rules.chronology!.users).toBe(1);

    const exported = await exportStage.run(ctx);
    expect(exported.in).toBe(6);
    expect(exported.quarantined).toBe(0);
    expect(exported.notes).toMatchObject({ excludedUsers: 1, users: { train: 4, test: 1 } });
    expect(exported.out).toBeGreaterThan(0);
    expect(existsSync(join(runDir, 'export', 'README.md'))).toBe(true);
    const sft = await readFile(join(runDir, 'export', 'sft', 'train.jsonl'), 'utf8');
    expect(sft).not.toContain('user-0001');
  });
});
