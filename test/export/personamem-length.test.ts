import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/eval/load.js';
import { createPersonaMemWriter, personaMemUser } from '../../src/export/eval/personamem.js';
import {
  PERSONAMEM_32K_MEAN_TOKENS,
  PERSONAMEM_32K_RANGE,
  type PlacedQuestion,
  personaMemMessages,
  personaMemTargets,
  placeQuestions,
} from '../../src/export/eval/personamem-context.js';
import { buildUserPlan } from '../../src/plan/index.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { loadModelTokenizer } from '../../src/util/model-tokenizer.js';
import { createFidelityMeter } from '../../src/validate/fidelity.js';
import { contextFigures, emptyContextCounts, measureContexts } from '../../src/validate/fidelity-contexts.js';
import { indexUser } from '../../src/validate/types.js';
import { fixtureUsers } from '../plan/fixtures.js';
import { buildFixtureUser } from '../validate/fixture.js';

const REAL = join(import.meta.dirname, '../../../shared/data/personamem/questions_32k.csv');
const config = ExportConfig.parse({ eval: { splits: ['train', 'test'], allFamiliesInEachFormat: true } });

describe('PersonaMem context length', () => {
  it.skipIf(!existsSync(REAL))('defaults to the real questions_32k.csv mean context_length_in_tokens', () => {
    const rows = parseCsv(readFileSync(REAL, 'utf8')).filter((row) => row.length > 1);
    const header = rows.shift()!;
    const column = header.indexOf('context_length_in_tokens');
    const mean = rows.reduce((sum, row) => sum + Number(row[column]), 0) / rows.length;
    expect(Math.round(mean)).toBe(PERSONAMEM_32K_MEAN_TOKENS);
    expect(ExportConfig.parse({}).eval.personamemContextTokens).toBe(PERSONAMEM_32K_MEAN_TOKENS);
  });

  it.skipIf(!existsSync(REAL))("keeps contexts within the real file's shortest and longest context", () => {
    const rows = parseCsv(readFileSync(REAL, 'utf8')).filter((row) => row.length > 1);
    const header = rows.shift()!;
    const column = header.indexOf('context_length_in_tokens');
    const lengths = rows.map((row) => Number(row[column]));
    expect(PERSONAMEM_32K_RANGE).toEqual({ min: Math.min(...lengths), max: Math.max(...lengths) });
    expect(ExportConfig.parse({}).eval.personamemContextRange).toEqual(PERSONAMEM_32K_RANGE);
  });

  it('windows whole sessions to the target, counted with gpt-tokenizer, never cutting evidence', () => {
    const bundle = buildFixtureUser('user-0001', { sessions: 6 });
    const messages = personaMemMessages(bundle);
    const targets = personaMemTargets(bundle, config);
    expect(targets.length).toBeGreaterThan(0);
    const any = { min: 0, max: Number.POSITIVE_INFINITY };
    const whole = placeQuestions(bundle, messages, targets, 1_000_000, any).placed;
    const sessionTokens = messages.filter((m) => m.session === 5).reduce((sum, m) => sum + m.tokens, 0);
    const short = placeQuestions(bundle, messages, targets, messages[0]!.tokens + sessionTokens, any).placed;
    expect(short).toHaveLength(targets.length);
    for (const [i, placed] of short.entries()) {
      const [[start, end]] = placed.parts as [readonly [number, number]];
      const window = [messages[0]!, ...messages.slice(start, end)];
      expect(placed.tokens).toBe(window.reduce((sum, m) => sum + countTokens(m.content), 0));
      // Starts at a session, never after the question's first evidence turn.
      expect(messages[start - 1]?.session).not.toBe(messages[start]!.session);
      const evidence = placed.qa.evidenceSlotIds.map((id) => indexUser(bundle).turnBySlot.get(id)!.turn.id);
      const first = Math.min(...evidence.map((id) => messages.findIndex((m) => m.turnId === id)));
      expect(start).toBeLessThanOrEqual(first);
      // A huge target keeps the whole history; a small one is closer to it than the whole history.
      expect(whole[i]!.parts[0]![0]).toBe(1);
      const target = messages[0]!.tokens + sessionTokens;
      expect(Math.abs(placed.tokens - target)).toBeLessThanOrEqual(Math.abs(whole[i]!.tokens - target));
    }
    expect(short.some((placed) => placed.parts[0]![0] > 1)).toBe(true);
  });

  it('never makes a context outside the range: evidence far back keeps its sessions and the latest ones; a short history is left out', () => {
    const bundle = buildFixtureUser('user-0001', { sessions: 6 });
    const messages = personaMemMessages(bundle);
    const targets = personaMemTargets(bundle, config);
    const placedAny = placeQuestions(bundle, messages, targets, 0, {
      min: 0,
      max: Number.POSITIVE_INFINITY,
    }).placed;
    // A range whose longest context is shorter than the run from a question's first evidence.
    const far = placedAny.find((p) => p.parts[0]![0] > 1) ?? placedAny[0]!;
    const sessionTokens = (s: number) =>
      messages.filter((m) => m.session === s).reduce((sum, m) => sum + m.tokens, 0);
    const range = { min: 1, max: far.tokens - 1 };
    const { placed, leftOut } = placeQuestions(bundle, messages, targets, range.max, range);
    expect(placed.length + leftOut.length).toBe(targets.length);
    for (const question of placed) {
      const indexes = question.parts.flatMap(([from, to]) =>
        Array.from({ length: to - from }, (_, k) => from + k),
      );
      const tokens = messages[0]!.tokens + indexes.reduce((sum, i) => sum + messages[i]!.tokens, 0);
      expect(tokens).toBe(question.tokens);
      expect(tokens).toBeLessThanOrEqual(range.max);
      // Every evidence turn before the question is in the window, and the window ends where it is asked.
      for (const id of question.qa.evidenceSlotIds) {
        const turn = indexUser(bundle).turnBySlot.get(id)!.turn.id;
        const at = messages.findIndex((m) => m.turnId === turn);
        if (at < question.end) expect(indexes).toContain(at);
      }
      expect(question.parts.at(-1)![1]).toBe(question.end);
    }
    for (const out of leftOut) expect(out.reason).toBe('evidence-too-far');
    expect(sessionTokens(0)).toBeGreaterThan(0);
    // No context reaches the real minimum: every question is left out, none is shortened or padded.
    const real = placeQuestions(bundle, messages, targets, PERSONAMEM_32K_MEAN_TOKENS);
    expect(real.placed).toEqual([]);
    expect(new Set(real.leftOut.map((q) => q.reason))).toEqual(new Set(['history-too-short']));
  });

  it('evidence far back and recent: its sessions and a run of the latest ones that may hold the later evidence, nothing after the question', () => {
    const bundle = buildFixtureUser('user-0001', { sessions: 6 });
    const messages = personaMemMessages(bundle);
    // Evidence in the first and the fifth session, asked after the sixth.
    const qa = {
      ...personaMemTargets(bundle, config)[0]!,
      evidenceSlotIds: ['user-0001-slot-0', 'user-0001-slot-4'],
    };
    const asked = Date.parse(qa.questionTime);
    expect(messages.filter((m) => m.time >= asked)).toEqual([]);
    const session = (s: number) =>
      messages.filter((m) => m.session === s).reduce((sum, m) => sum + m.tokens, 0);
    const system = messages[0]!.tokens;
    const whole = system + [0, 1, 2, 3, 4, 5].reduce((sum, s) => sum + session(s), 0);
    // The whole history is too long and its evidence sessions with only the sessions after the
    // last one too short: a run of the latest sessions reaching back past the fifth fits.
    const range = { min: system + session(0) + session(4) + session(5) + 1, max: whole - 1 };
    const { placed, leftOut } = placeQuestions(bundle, messages, [qa], range.min, range);
    expect(leftOut).toEqual([]);
    const [question] = placed as [PlacedQuestion];
    const indexes = question.parts.flatMap(([from, to]) =>
      Array.from({ length: to - from }, (_, k) => from + k),
    );
    const turn = (slot: string) =>
      messages.findIndex((m) => m.turnId === indexUser(bundle).turnBySlot.get(slot)!.turn.id);
    for (const slot of qa.evidenceSlotIds) expect(indexes).toContain(turn(slot));
    expect(question.parts[0]).toEqual([1, 1 + messages.filter((m) => m.session === 0).length]);
    expect(question.parts.at(-1)![0]).toBeLessThanOrEqual(turn('user-0001-slot-4'));
    expect(question.parts.at(-1)![1]).toBe(question.end);
    expect(question.tokens).toBe(system + indexes.reduce((sum, i) => sum + messages[i]!.tokens, 0));
    expect(question.tokens).toBeGreaterThanOrEqual(range.min);
    expect(question.tokens).toBeLessThanOrEqual(range.max);
    // Sessions between the two evidence sessions that the run does not reach are left out.
    expect(indexes.some((i) => messages[i]!.session === 1)).toBe(false);
    // Evidence sessions with the question's own session longer than the longest context: left out.
    const tight = { min: 1, max: system + session(0) + session(4) + session(5) - 1 };
    const far = placeQuestions(bundle, messages, [qa], tight.max, tight);
    expect(far.leftOut.map((q) => q.reason)).toEqual(['evidence-too-far']);
  });

  it('fidelity: a corpus of short histories exports no PersonaMem context and says how many it left out', () => {
    const meter = createFidelityMeter({ exportConfig: config });
    for (const id of ['user-0001', 'user-0002']) meter.addUser(indexUser(buildFixtureUser(id)), new Map());
    const figures = meter.finish();
    expect(figures.personamem_context_tokens).toBeUndefined();
    // Users whose whole history is short: reported per reason, not held against the 5% target.
    expect(figures.personamem_questions_left_out).toBeUndefined();
    expect(figures.personamem_left_out_history_too_short).toMatchObject({ value: 100, ok: null });
    expect(figures.personamem_left_out_history_too_short?.description).toContain(
      'of users whose whole history is',
    );
    expect(figures.personamem_left_out_evidence_too_far).toMatchObject({ value: 0, ok: null });
  });

  it('export counts the questions it leaves out per reason, and numbers only personas with rows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pf-personamem-writer-'));
    try {
      const writer = createPersonaMemWriter(dir);
      const parts = ['user-0001', 'user-0002'].map((id) => personaMemUser(buildFixtureUser(id), config)!);
      for (const part of parts) {
        expect(part.rows).toEqual([]);
        expect(part.leftOut.historyTooShort).toBeGreaterThan(0);
        writer.addUser(part);
      }
      const written = await writer.finish();
      expect(written).toEqual({
        questions: 0,
        contexts: 0,
        leftOut: {
          historyTooShort: parts[0]!.leftOut.historyTooShort + parts[1]!.leftOut.historyTooShort,
          evidenceTooFar: 0,
        },
      });
      // A run with no PersonaMem question at all says nothing of left-out questions.
      expect(await createPersonaMemWriter(dir).finish()).toEqual({ questions: 0, contexts: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('persona-tree test users realized offline: contexts within the real range (also by the model tokenizer), mean within 10%', async () => {
    const users = fixtureUsers(18, 5).filter((user) => user.split === 'test');
    const counts = emptyContextCounts();
    const tokenizer = await loadModelTokenizer('qwen3');
    let exported = 0;
    for (const user of users) {
      const plan = buildUserPlan({ ...user, images: [] }, { config: { profile: 'persona-tree' }, seed: 42 });
      const dialogue = await realizeDialogue(plan, {
        realizer: createOfflineRealizer({ seed: 42 }),
        seed: 42,
      });
      const bundle = { plan, dialogue, memory: null };
      measureContexts(indexUser(bundle), config, counts);
      // What export writes: each row's context (its shared context up to its end index), counted
      // with the trained model's tokenizer, fits a 32k window and the real file's range.
      const part = personaMemUser(bundle, config);
      const contexts = new Map(
        (part?.contexts ?? []).map(
          (line) => Object.entries(JSON.parse(line))[0] as [string, Array<{ content: string }>],
        ),
      );
      for (const row of part?.rows ?? []) {
        const fields = parseCsv(`${row}\n`)[0]!;
        const messages = contexts.get(fields[12]!)!.slice(0, Number(fields[13]));
        const model = messages.reduce((sum, m) => sum + tokenizer.count(m.content), 0);
        expect(model).toBeLessThanOrEqual(32_768);
        expect(model).toBeGreaterThanOrEqual(PERSONAMEM_32K_RANGE.min);
        expect(model).toBeLessThanOrEqual(PERSONAMEM_32K_RANGE.max * 1.02);
        exported++;
      }
    }
    const figures = contextFigures(counts, config);
    console.info(
      `persona-tree PersonaMem: ${exported} contexts, mean ${figures.personamem_context_tokens?.value} tokens; left out ${figures.personamem_questions_left_out?.count} of ${figures.personamem_questions_left_out?.of}`,
    );
    expect(exported).toBeGreaterThan(30);
    expect(figures.personamem_context_range).toMatchObject({ count: 0, ok: true });
    expect(figures.personamem_context_tokens).toMatchObject({ ok: true });
    // Asked once the history reaches the real file's shortest context: few questions left out.
    expect(figures.personamem_questions_left_out).toMatchObject({ target: 5, ok: true });
  }, 240_000);
});
