/**
 * The online path against `dev fake-llm` in its free-writing dialect (every role online): text
 * written like a chat model, from banks that share nothing with the reader, with genuine
 * contradictions planted. Few users are quarantined, few chunks regenerated, every planted
 * contradiction is caught, and the counts reach manifest.json and validation.json.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { plantedMessages } from '../../src/dev/fake-llm/responders/planted.js';
import { runPipelineFile } from '../../src/pipeline/run-file.js';

const repoRoot = resolve(import.meta.dirname, '../..');
const quickstart = join(repoRoot, 'pipelines/quickstart.yaml');
const dirs: string[] = [];
const servers: FakeLlmServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('quickstart against the fake model writing freely', () => {
  it('quarantines ≤ 2% of users, regenerates ≤ 0.3 times per chunk and catches every planted contradiction', async () => {
    const server = await startFakeLlmServer({ dialect: { name: 'free', contradictionRate: 0.15 } });
    servers.push(server);
    const out = await mkdtemp(join(tmpdir(), 'pf-meaning-online-'));
    const cache = await mkdtemp(join(tmpdir(), 'pf-meaning-cache-'));
    dirs.push(out, cache);
    const before = plantedMessages().count;
    await runPipelineFile(quickstart, {
      outDir: out,
      overrides: {
        personas: { train: 4, test: 2 },
        stages: ['plan', 'synth', 'memory', 'validate'],
        llm: {
          endpoints: {
            fake: { baseUrl: server.url, model: 'fake-model', maxConcurrency: 8, timeoutMs: 5_000 },
          },
          roles: { realizer: 'fake', judge: 'fake', embedder: 'fake' },
          cache: { enabled: true, dir: cache },
        },
      },
    });
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.status).toBe('complete');
    const synth = manifest.stages.find((s: { name: string }) => s.name === 'synth');
    const notes = synth.notes as Record<string, number>;
    expect(notes.chunks).toBeGreaterThan(0);
    expect((notes.regenerations ?? 0) / (notes.chunks ?? 1)).toBeLessThanOrEqual(0.3);
    expect(synth.quarantined / synth.in).toBeLessThanOrEqual(0.02);
    // Contradictions were planted, the judge named each, and none reached the corpus.
    const planted = plantedMessages();
    expect(planted.count - before).toBeGreaterThan(0);
    const dialogues = await readFile(join(out, 'dialogues/dialogues.jsonl'), 'utf8');
    const texts = new Set(
      dialogues
        .split('\n')
        .filter((line) => line !== '')
        .flatMap((line) =>
          JSON.parse(line).sessions.flatMap((s: { turns: Array<{ text: string }> }) => s.turns),
        )
        .map((turn: { text: string }) => turn.text.replace(/\s+/g, ' ').trim()),
    );
    expect(planted.messages.filter((message) => texts.has(message))).toEqual([]);
    expect(notes.judgeSaysOpposite).toBeGreaterThan(0);
    // The fidelity section counts what the reader could not read and what a judge decided.
    const validation = JSON.parse(await readFile(join(out, 'validation.json'), 'utf8'));
    expect(validation.fidelity.meaning_unsure.of).toBeGreaterThan(0);
    expect(validation.fidelity.meaning_judged_opposite.count).toBe(notes.judgeSaysOpposite);
  }, 600_000);
});
