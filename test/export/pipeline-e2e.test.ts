import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDataset } from '../../src/export/index.js';
import { offlineChatText, offlineEmbedding } from '../../src/llm/offline-backend.js';
import type { LlmClient, StructuredRequest } from '../../src/llm/types.js';
import { defaultStages } from '../../src/pipeline/registry.js';
import { runPipeline } from '../../src/pipeline/runner.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { PipelineConfig } from '../../src/schemas/pipeline.js';
import { ValidationReport } from '../../src/schemas/validate-config.js';

/** An LlmClient whose every role is offline: structured requests answer with their `offline()`. */
function offlineLlm(): LlmClient {
  const usage = { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, failures: 0 };
  return {
    async chat(_role, request) {
      return {
        text: offlineChatText(request.messages),
        usage: { promptTokens: 0, completionTokens: 0 },
        cached: false,
        offline: true,
        model: 'offline',
      };
    },
    async structured<T>(_role: string, request: StructuredRequest<T>) {
      if (request.offline === undefined) throw new Error('offline answer missing');
      return request.offline();
    },
    async safeStructured<T>(_role: string, request: StructuredRequest<T>) {
      if (request.offline === undefined)
        return { ok: false as const, error: new Error('offline answer missing') };
      return { ok: true as const, value: request.offline(), offline: true };
    },
    async embed(_role, texts) {
      return texts.map((text) => offlineEmbedding(text, 64));
    },
    isOffline: () => true,
    modelFor: () => 'offline',
    usage: () => ({ byStage: {}, byEndpoint: {}, total: { ...usage } }),
  };
}

let runDir: string;
let ok = false;
let message = '';

beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'pf-e2e-'));
  const config = PipelineConfig.parse({
    name: 'validate-export-e2e',
    seed: 11,
    stages: ['plan', 'synth', 'memory', 'validate', 'export'],
    personas: { train: 3, test: 2 },
    export: { eval: { splits: ['train', 'test'] } },
  });
  const summary = await runPipeline({
    config,
    configFile: 'test',
    outDir: runDir,
    llm: offlineLlm(),
    stages: defaultStages,
  });
  ok = summary.ok;
  message = summary.message ?? JSON.stringify(summary.stages);
}, 300_000);
afterAll(async () => rm(runDir, { recursive: true, force: true }));

describe('plan → offline synth → memory → validate → export', () => {
  it('runs every stage', () => {
    expect(ok, message).toBe(true);
  });

  it('validates the clean offline corpus with 0 rule failures', async () => {
    const report = ValidationReport.parse(
      JSON.parse(await readFile(join(runDir, 'validation.json'), 'utf8')),
    );
    const failing = Object.fromEntries(
      Object.entries(report.rules)
        .filter(([, entry]) => entry.failures > 0)
        .map(([name, entry]) => [name, entry.examples.slice(0, 3)]),
    );
    expect(failing).toEqual({});
    expect(report.totals.ruleFailures).toBe(0);
    expect(report.totals.users).toBe(5);
    expect(report.totals.usersWithMemory).toBe(5);
    expect(report.judgeMode).toBe('offline-heuristic');
  });

  it('exports parquet equal to jsonl and the evaluation sets', async () => {
    for (const file of [
      'sft/train.parquet',
      'rl/test.jsonl',
      'eval/persona-mme/Persona-MME.json',
      'eval/personamem/questions.csv',
      'eval/locomo.json',
      'README.md',
    ]) {
      expect(existsSync(join(runDir, 'export', file)), file).toBe(true);
    }
    // Export every user again (quarantine ignored) so the real records are exercised even when
    // validation quarantined some.
    const outDir = join(runDir, 'export-all');
    const summary = await exportDataset(runDir, {
      config: ExportConfig.parse({ eval: { splits: ['train', 'test'] } }),
      seed: 11,
      exclude: new Set(),
      outDir,
    });
    expect(summary.offline).toEqual({ realizer: true, memory: true, judges: true });
    expect(
      summary.eval.personaMme.questions + summary.eval.personamem.questions + summary.eval.locomo.questions,
    ).toBeGreaterThan(0);
    let embedded = 0;
    for (const kind of ['sft', 'rl']) {
      for (const split of ['train', 'test']) {
        const text = await readFile(join(outDir, kind, `${split}.jsonl`), 'utf8');
        const expected = text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line));
        expect(expected.length, `${kind}/${split}`).toBeGreaterThan(0);
        const bytes = await readFile(join(outDir, kind, `${split}.parquet`));
        // utf8: false keeps the image bytes (binary) as bytes; string columns still read as text.
        const rows = await parquetReadObjects({
          file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
          utf8: false,
        });
        // Parquet `images` are the Image feature: each path with the pool file's bytes.
        const images = rows.flatMap((row) => row.images as Array<{ bytes: Uint8Array; path: string }>);
        expect(
          rows.map((row) => ({ ...row, images: row.images.map((image: { path: string }) => image.path) })),
        ).toEqual(expected);
        for (const image of images)
          expect(Buffer.from(image.bytes).equals(await readFile(join(outDir, image.path))), image.path).toBe(
            true,
          );
        embedded += images.length;
      }
    }
    expect(embedded).toBeGreaterThan(0);
    const reasoning = (await readFile(join(outDir, 'sft', 'train.jsonl'), 'utf8'))
      .split('\n')
      .find((line) => line.includes('"task":"reasoning"'));
    expect(reasoning).toBeDefined();
    for (const message of JSON.parse(reasoning!).messages)
      expect(message.content.startsWith('<memory>\n<memory>')).toBe(false);
  });
});
