/**
 * Photo and correction turns a model writes are checked by a model on write
 * (photo-description/1, correction-check/1): `dev fake-llm` writes every photo turn with a detail
 * of what the photo shows and every correction taking back a held preference on its first try,
 * and its judge says so; the chunk is regenerated and none of it reaches the corpus. Served by a
 * judge that passes everything, the same text stays: the verdict decides, not a reader of ours.
 * A judge that leaves a question out quarantines the user with the prompt named.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptKind } from '../../src/dev/fake-llm/responders/index.js';
import type { FakeLlmServerOptions } from '../../src/dev/fake-llm/server.js';
import { onlineQuickstart } from '../support/online-quickstart.js';

const online = onlineQuickstart('pf-round-labels-');

const lines = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

const PLANTED_DETAIL = 'You can count three of them in it.';
const PLANTED_RETRACTION = 'And forget what I told you about';

async function synthOnline(options: FakeLlmServerOptions) {
  const server = await online.server({
    dialect: { name: 'free', contradictionRate: 0, labelErrorRate: 1 },
    ...options,
  });
  const { out, error } = await online.run(server, ['plan', 'synth'], ['realizer', 'judge']);
  const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
  const synth = manifest.stages.find((s: { name: string }) => s.name === 'synth');
  const turns = (await lines(join(out, 'dialogues/dialogues.jsonl'))).flatMap((d) =>
    d.sessions.flatMap(
      (s: { turns: Array<{ speaker: string; text: string; noise: string | null; images: string[] }> }) =>
        s.turns.filter((t) => t.speaker === 'user'),
    ),
  );
  return { error, notes: synth.notes as Record<string, number>, turns, out };
}

describe('photo and correction turns of a model', () => {
  it('are regenerated when the judge finds a photo detail or a retraction, and none reaches the corpus', async () => {
    const { error, notes, turns } = await synthOnline({});
    expect(error).toBeNull();
    const photos = turns.filter((t) => t.images.length > 0);
    const corrections = turns.filter((t) => t.noise === 'correction');
    expect(photos.length).toBeGreaterThan(0);
    expect(corrections.length).toBeGreaterThan(0);
    expect(notes.labelCalls).toBeGreaterThan(0);
    expect(notes.regenerations).toBeGreaterThan(0);
    expect(turns.filter((t) => t.text.includes(PLANTED_DETAIL))).toEqual([]);
    expect(turns.filter((t) => t.text.includes(PLANTED_RETRACTION))).toEqual([]);
    // Every correction says the slip it was planned to correct.
    for (const turn of corrections)
      expect(turn.text).toMatch(/^My mistake earlier: .+ is actually .+, not .+\./);
  }, 300_000);

  it('stay as written when the judge passes them: the verdict decides', async () => {
    const pass = { shown: true, subject: true, details: [], corrects: true, retracts: [] };
    const { error, notes, turns } = await synthOnline({
      respond: (request) => {
        const kind = promptKind(request);
        if (kind !== 'photo_description' && kind !== 'correction_check') return undefined;
        const prompt = request.messages.map((m) => m.content).join('\n');
        const ids = [...prompt.matchAll(/^(?:PHOTO|CORRECTION) (\S+) /gm)].map((m) => m[1]!);
        return { answers: ids.map((id) => ({ id, ...pass })) };
      },
    });
    expect(error).toBeNull();
    expect(notes.regenerations ?? 0).toBe(0);
    expect(turns.filter((t) => t.text.includes(PLANTED_DETAIL)).length).toBeGreaterThan(0);
    expect(turns.filter((t) => t.text.includes(PLANTED_RETRACTION)).length).toBeGreaterThan(0);
  }, 300_000);

  it('a judge that leaves a photo out quarantines the user with the prompt named, never a pass', async () => {
    const { error, out } = await synthOnline({
      respond: (request) => (promptKind(request) === 'photo_description' ? { answers: [] } : undefined),
    });
    expect(String(error)).toMatch(/no records left after synth/);
    const quarantine = await lines(join(out, 'quarantine.jsonl'));
    expect(quarantine).toHaveLength(2);
    for (const record of quarantine) {
      expect(record.code).toBe('LLM_SCHEMA_MISMATCH');
      expect(record.reason).toMatch(/photo-description\/1 gave no answer for p1/);
    }
  }, 300_000);
});
