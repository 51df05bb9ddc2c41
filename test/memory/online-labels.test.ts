/**
 * On the online path the labels read from model-written text come from a model with a versioned
 * prompt, not from the offline cue lists: `dev fake-llm` (free-writing dialect, every role online)
 * writes the dialogue, and its judge grades personality from what it wrote — a planted decoy cue
 * ("my sister is worried sick") that the offline reader takes for the user's trait decides
 * nothing. A judge that gives no grades quarantines the user with the prompt and message named.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { TRAIT_DECOYS } from '../../src/dev/fake-llm/responders/free-writing.js';
import { promptKind } from '../../src/dev/fake-llm/responders/index.js';
import { writtenIn } from '../../src/dev/fake-llm/responders/written.js';
import { runPipelineFile } from '../../src/pipeline/run-file.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../../src/schemas/common.js';
import { decodeUserMemoryRecord } from '../../src/schemas/memory-record-codec.js';
import { personalityTargetFromText } from '../support/cue-list-personality.js';

const quickstart = join(resolve(import.meta.dirname, '../..'), 'pipelines/quickstart.yaml');
const dirs: string[] = [];
const servers: FakeLlmServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const lines = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

async function runOnline(server: FakeLlmServer, stages: string[]) {
  const out = await mkdtemp(join(tmpdir(), 'pf-online-labels-'));
  dirs.push(out);
  await runPipelineFile(quickstart, {
    outDir: out,
    overrides: {
      personas: { train: 2, test: 0 },
      stages,
      llm: {
        endpoints: {
          fake: { baseUrl: server.url, model: 'fake-model', maxConcurrency: 8, timeoutMs: 5_000 },
        },
        roles: { realizer: 'fake', judge: 'fake', embedder: 'fake' },
        // The fake's judge knows what it wrote in this process: nothing may come from a disk cache.
        cache: { enabled: false },
      },
    },
  });
  return out;
}

describe('labels on model-written text', () => {
  it('personality targets are the judge’s grades of what the model wrote, not what the cue list reads', async () => {
    const server = await startFakeLlmServer({ dialect: { name: 'free', contradictionRate: 0.15 } });
    servers.push(server);
    const out = await runOnline(server, ['plan', 'synth', 'memory', 'validate']);
    const memory = (await lines(join(out, 'memory/memory.jsonl'))).map(decodeUserMemoryRecord);
    const traces = memory.flatMap((user) =>
      (
        user.traces as Array<{ task: string; input: { turn: { text: string } }; gold: { value: BigFive } }>
      ).filter((trace) => trace.task === 'personality_inference'),
    );
    expect(traces.length).toBeGreaterThan(0);
    let decided = 0;
    let cueWouldDiffer = 0;
    let decoys = 0;
    for (const trace of traces) {
      const text = trace.input.turn.text;
      const written = writtenIn(text);
      expect(written, text).not.toBeNull();
      const expected = Object.fromEntries(BIG_FIVE_TRAITS.map((t) => [t, written?.traits[t] ?? 3]));
      expect(trace.gold.value).toEqual(expected);
      if (Object.keys(written?.traits ?? {}).length > 0) decided++;
      const cue = personalityTargetFromText(text, { ...trace.gold.value });
      if (BIG_FIVE_TRAITS.some((t) => cue[t] !== trace.gold.value[t])) cueWouldDiffer++;
      for (const [trait, phrases] of Object.entries(TRAIT_DECOYS) as Array<[keyof BigFive, string[]]>) {
        if (!phrases.some((decoy) => text.includes(decoy)) || written?.traits[trait] !== undefined) continue;
        // Someone else's trait: the cue list reads it as the user's, the judge does not.
        expect(cue[trait], text).not.toBe(3);
        expect(trace.gold.value[trait]).toBe(3);
        decoys++;
      }
    }
    // The judge graded traits the model showed, and on some messages (its own phrasing, a
    // planted decoy) the offline cue list would have read another target.
    expect(decided).toBeGreaterThan(0);
    expect(cueWouldDiffer).toBeGreaterThan(0);
    expect(decoys).toBeGreaterThan(0);
    const validation = JSON.parse(await readFile(join(out, 'validation.json'), 'utf8'));
    expect(JSON.stringify(validation.failures ?? [])).not.toMatch(/personality_evidence/);
  }, 300_000);

  it('a judge answer without grades quarantines the user with the prompt and message named, never a default target', async () => {
    const server = await startFakeLlmServer({
      respond: (request) => (promptKind(request) === 'personality_evidence' ? { messages: [] } : undefined),
    });
    servers.push(server);
    const out = await runOnline(server, ['plan', 'synth', 'memory']).catch((error: unknown) => {
      // Every user quarantined: the run stops with nothing left after memory.
      expect(String(error)).toMatch(/no records left after memory/);
      return dirs[dirs.length - 1] as string;
    });
    const quarantine = await lines(join(out, 'quarantine.jsonl'));
    const memory = quarantine.filter((record) => record.stage === 'memory');
    expect(memory).toHaveLength(2);
    for (const record of memory) {
      expect(record.code).toBe('LLM_SCHEMA_MISMATCH');
      expect(record.reason).toMatch(/personality-evidence\/1 gave no grades for message M1/);
    }
    expect(await lines(join(out, 'memory/memory.jsonl'))).toEqual([]);
  }, 300_000);
});
