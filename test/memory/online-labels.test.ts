/**
 * On the online path the labels read from model-written text come from a model with a versioned
 * prompt, not from the offline cue lists: `dev fake-llm` (free-writing dialect, every role online)
 * writes the dialogue, and its judge grades personality from what it wrote — a planted decoy cue
 * ("my sister is worried sick") that the offline reader takes for the user's trait decides
 * nothing. A judge that gives no grades quarantines the user with the prompt and message named.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { TRAIT_DECOYS } from '../../src/dev/fake-llm/responders/free-writing.js';
import { promptKind } from '../../src/dev/fake-llm/responders/index.js';
import { writtenIn } from '../../src/dev/fake-llm/responders/written.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../../src/schemas/common.js';
import { decodeUserMemoryRecord } from '../../src/schemas/memory-record-codec.js';
import { personalityTargetFromText } from '../support/cue-list-personality.js';
import { onlineQuickstart } from '../support/online-quickstart.js';

const online = onlineQuickstart('pf-online-labels-');

const lines = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

/** Every role online (the realizer writes, the judge grades, the embedder embeds). */
async function runOnline(server: FakeLlmServer, stages: string[]) {
  return online.run(server, stages, ['realizer', 'judge', 'embedder']);
}

describe('labels on model-written text', () => {
  it('personality targets are the judge’s grades of what the model wrote, not what the cue list reads', async () => {
    const server = await online.server({ dialect: { name: 'free', contradictionRate: 0.15 } });
    const { out, error } = await runOnline(server, ['plan', 'synth', 'memory', 'validate']);
    expect(error).toBeNull();
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
    const server = await online.server({
      respond: (request) => (promptKind(request) === 'personality_evidence' ? { messages: [] } : undefined),
    });
    const { out, error } = await runOnline(server, ['plan', 'synth', 'memory']);
    // Every user quarantined: the run stops with nothing left after memory.
    if (error !== null) expect(String(error)).toMatch(/no records left after memory/);
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
