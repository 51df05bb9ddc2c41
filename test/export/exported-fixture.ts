import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExportSummary, exportDataset } from '../../src/export/index.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { ValidateConfig } from '../../src/schemas/validate-config.js';
import { writeJson } from '../../src/util/fs.js';
import { readRunBundles, validateCorpus } from '../../src/validate/index.js';
import { DEFECTS } from '../validate/defects.js';
import { buildFixtureCorpus } from '../validate/fixture.js';
import { writeRun } from './write-run.js';

/** The export settings the export tests use: evaluation sets from both splits. */
// The fixture's histories are a few hundred tokens: the PersonaMem format is tested here, not its
// real context lengths (test/export/personamem-length.test.ts), so any length is accepted.
export const exportConfig = ExportConfig.parse({
  eval: { splits: ['train', 'test'], personamemContextRange: { min: 0, max: 1_000_000 } },
});

/** The JSON records of a JSON Lines file. */
export const jsonLines = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

/**
 * A validated run of 9 fixture users (one quarantined by a planted multiple-choice defect, one
 * pool image) under a fresh temporary `root`, exported once into `<runDir>/export`.
 */
export async function exportedFixtureRun(): Promise<{
  root: string;
  runDir: string;
  summary: ExportSummary;
}> {
  const root = await mkdtemp(join(tmpdir(), 'pf-export-'));
  const runDir = join(root, 'run');
  const users = buildFixtureCorpus(9);
  DEFECTS.find((defect) => defect.check === 'multiple_choice')!.apply(users[2]!, null);
  await writeRun(runDir, users);
  await mkdir(join(runDir, 'plan', 'images', 'builtin'), { recursive: true });
  await writeFile(join(runDir, 'plan', 'images', 'builtin', 'cat-0.png'), 'png bytes');
  const report = await validateCorpus(readRunBundles(runDir), { config: ValidateConfig.parse({}) });
  await writeJson(join(runDir, 'validation.json'), report);
  const summary = await exportDataset(runDir, {
    config: exportConfig,
    seed: 42,
    generation: { pipeline: 'test' },
  });
  return { root, runDir, summary };
}
