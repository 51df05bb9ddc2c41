import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExportBundle, readExportBundles } from '../../src/export/read-run.js';
import { createLlmClient } from '../../src/llm/index.js';
import { defaultStages } from '../../src/pipeline/registry.js';
import { runPipeline } from '../../src/pipeline/runner.js';
import { PipelineConfig, type PipelineConfigInput } from '../../src/schemas/pipeline.js';

/**
 * Plans and realizes a small offline corpus (plan + synth only) for the system exporters'
 * tests, returning the run directory and its users as export bundles.
 *
 * @example const { runDir, bundles } = await smallCorpus({ plan: { profile: 'm2a' } });
 */
export async function smallCorpus(
  overrides: Partial<PipelineConfigInput> = {},
): Promise<{ runDir: string; bundles: ExportBundle[]; config: PipelineConfig }> {
  const runDir = await mkdtemp(join(tmpdir(), 'pf-systems-'));
  const config = PipelineConfig.parse({
    name: 'systems-test',
    seed: 7,
    stages: ['plan', 'synth'],
    personas: { train: 2, test: 2 },
    ...overrides,
  });
  const llm = createLlmClient(config.llm, { cache: false, env: {} });
  const summary = await runPipeline({
    config,
    configFile: 'test',
    outDir: runDir,
    llm,
    stages: defaultStages,
    shard: null,
  });
  if (!summary.ok) throw new Error(`corpus run failed: ${summary.message ?? ''}`);
  const bundles: ExportBundle[] = [];
  for await (const bundle of readExportBundles(runDir)) bundles.push(bundle);
  return { runDir, bundles, config };
}
