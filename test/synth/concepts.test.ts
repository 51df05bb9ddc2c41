import { describe, expect, it } from 'vitest';
import { SynthError } from '../../src/errors/index.js';
import { interpolateIntoHost } from '../../src/interpolate/index.js';
import { buildUserPlan } from '../../src/plan/index.js';
import type { ImageRef, VisualConcept } from '../../src/schemas/plan.js';
import { SynthConfig } from '../../src/schemas/synth-config.js';
import {
  type ConceptGeneration,
  conceptConversationForPlan,
  conceptConversationToSessions,
  generateConceptConversation,
  sampleConceptGroup,
  validateConceptGeneration,
} from '../../src/synth/concepts/index.js';
import { createRng } from '../../src/util/rng.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';
import { makeLocomoFixture } from '../support/locomo-fixture.js';
import { createStubLlm } from './stub-llm.js';

const config = SynthConfig.parse({}).concepts;
const images: ImageRef[] = Array.from({ length: 15 }, (_, i) => ({
  id: `img-${i}`,
  path: `pool/${i}.png`,
  caption: `scene number ${i} with a ${['dog', 'mug', 'bike', 'cat', 'lamp'][i % 5]}`,
  objects: [{ name: 'thing', color: 'red', count: 1 }],
}));
const pool: VisualConcept[] = ['Biscuit', 'Mochi', 'Old Blue', 'Pip', 'Luna'].map((name, c) => ({
  id: `concept-${c}`,
  name,
  kind: c % 2 === 0 ? 'pet' : 'object',
  objectClass: c % 2 === 0 ? 'dog' : 'mug',
  description: `the user's ${c % 2 === 0 ? 'dog' : 'favourite mug'} number ${c}`,
  imageIds: [0, 1, 2].map((k) => `img-${c * 3 + k}`),
}));
const times = [
  '2023-06-05T15:12:00.000Z',
  '2023-06-09T10:00:00.000Z',
  '2023-06-14T18:30:00.000Z',
  '2023-06-20T09:45:00.000Z',
  '2023-06-26T20:05:00.000Z',
];

describe('concept groups', () => {
  it('samples 3-4 concepts with 2-3 images each', () => {
    for (let seed = 0; seed < 20; seed++) {
      const group = sampleConceptGroup(pool, createRng(seed), config);
      expect(group.length).toBeGreaterThanOrEqual(3);
      expect(group.length).toBeLessThanOrEqual(4);
      for (const member of group) expect([2, 3]).toContain(member.imageIds.length);
    }
    expect(() => sampleConceptGroup(pool.slice(0, 2), createRng(1), config)).toThrow(SynthError);
  });
});

describe('concept sessions (offline)', () => {
  it('yields validated sessions with exact times, <Name> mentions and the 2:3:1:4 QA mix', async () => {
    const concepts = sampleConceptGroup(pool, createRng(4), config);
    const conversation = await generateConceptConversation({ concepts, images, times, seed: 4 });
    expect(conversation).toMatchObject({ generator: 'offline', offline: true, attempts: 1 });
    expect(validateConceptGeneration(conversation, { concepts, times, config })).toEqual([]);
    expect(conversation.sessions.map((s) => s.date_time)).toEqual(times);
    for (const concept of concepts)
      expect(conversation.sessions[0]!.turns[0]!.text).toContain(`<${concept.name}>`);
    const counts: Record<number, number> = {};
    for (const q of conversation.qa) counts[q.category] = (counts[q.category] ?? 0) + 1;
    expect(counts).toEqual({ 6: 4, 7: 6, 8: 2, 9: 8 });
    const shown = new Set(conversation.sessions.flatMap((s) => s.turns.flatMap((t) => t.images)));
    expect(shown).toEqual(new Set(concepts.flatMap((c) => c.imageIds)));
    const again = await generateConceptConversation({ concepts, images, times, seed: 4 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(conversation));
  });

  it('the validator names what is wrong', () => {
    const concepts = sampleConceptGroup(pool, createRng(4), config);
    const bad: ConceptGeneration = {
      sessions: [
        { date_time: 'yesterday', turns: [{ speaker: 0, dia_id: 'S0:1', images: ['nope'], text: 'hi' }] },
      ],
      qa: [{ question: 'q', answer: 'a', evidence: ['S9:9'], category: 6 }],
    };
    const issues = validateConceptGeneration(bad, { concepts, times, config }).join('\n');
    expect(issues).toMatch(/expected 5 sessions, got 1/);
    expect(issues).toMatch(/date_time must be exactly/);
    expect(issues).toMatch(/dia_id must be "S0:0"/);
    expect(issues).toMatch(/unknown image "nope"/);
    expect(issues).toMatch(/must name </);
    expect(issues).toMatch(/category 7: expected 6 QA items, got 0/);
    expect(issues).toMatch(/unknown evidence "S9:9"/);
  });

  it('never repeats a turn or a question, and names the session of the evidence (seeds 0-29)', async () => {
    for (let seed = 0; seed < 30; seed++) {
      const concepts = sampleConceptGroup(pool, createRng(seed), config);
      const conversation = await generateConceptConversation({ concepts, images, times, seed });
      const texts = conversation.sessions.flatMap((s) => s.turns.map((t) => t.text.toLowerCase()));
      expect(new Set(texts).size).toBe(texts.length);
      const questions = conversation.qa.map((q) => q.question);
      expect(new Set(questions).size).toBe(questions.length);
      let named = 0;
      for (const item of conversation.qa)
        for (const match of `${item.question} ${item.answer}`.matchAll(/session (\d+)/g)) {
          named++;
          expect(
            item.evidence.map((id) => id.split(':')[0]),
            item.question,
          ).toContain(`S${match[1]}`);
        }
      expect(named).toBeGreaterThan(0);
      const shown = conversation.sessions.flatMap((s) => s.turns.flatMap((t) => t.images)).length;
      expect([21, 22]).toContain(shown);
    }
  });

  it('the validator rejects a repeated turn, a repeated question and a wrong session number', async () => {
    const concepts = sampleConceptGroup(pool, createRng(6), config);
    const good = await generateConceptConversation({ concepts, images, times, seed: 6 });
    const bad = structuredClone({ sessions: good.sessions, qa: good.qa }) as ConceptGeneration;
    bad.sessions[2]!.turns[3]!.text = bad.sessions[1]!.turns[1]!.text;
    bad.qa[19]!.question = bad.qa[18]!.question; // the two open-domain questions
    const item = bad.qa.find((q) => /session \d+/.test(q.question))!;
    item.question = item.question.replace(/session (\d+)/, (_, n) => `session ${Number(n) + 1}`);
    const issues = validateConceptGeneration(bad, { concepts, times, config }).join('\n');
    expect(issues).toMatch(/S2:3 repeats the text of S1:1/);
    expect(issues).toMatch(/is asked twice/);
    expect(issues).toMatch(/names session \d+ but its evidence is in session/);
  });

  it('converts to native sessions with placeholders and interpolates into a LoCoMo host with QA categories 6-9', async () => {
    const concepts = sampleConceptGroup(pool, createRng(5), config);
    const conversation = await generateConceptConversation({ concepts, images, times, seed: 5 });
    const insert = conceptConversationToSessions(conversation, { userId: 'u1', turnGapMinutes: 2 });
    for (const turn of insert.sessions.flatMap((s) => s.turns))
      expect(turn.text.match(/<image>/g)?.length ?? 0).toBe(turn.images.length);
    const host = makeLocomoFixture({ sessions: 3, gapDays: 40 });
    const { document, report } = interpolateIntoHost({
      host,
      format: 'locomo',
      sessions: { ...insert, images },
      seed: 1,
      position: 1,
    });
    expect(report.inserted).toBe(5);
    expect(report.qaAdded).toBe(20);
    const qa = (
      document as { qa: Array<{ question: string; answer: string; evidence: string[]; category: number }> }
    ).qa.slice(-20);
    for (const item of qa) for (const id of item.evidence) expect(id).toMatch(/^D[2-6]:\d+$/);
    // "session N" follows the splice: it names the merged record's session_N of its evidence.
    const named = qa.filter((item) => /session \d+/.test(`${item.question} ${item.answer}`));
    expect(named.length).toBeGreaterThan(0);
    for (const item of named)
      for (const match of `${item.question} ${item.answer}`.matchAll(/session (\d+)/g))
        expect(item.evidence.map((id) => id.split(':')[0])).toContain(`D${match[1]}`);
  });
});

describe('concept sessions (LLM)', () => {
  it('retries with the validation problems, then returns the first valid answer', async () => {
    const concepts = sampleConceptGroup(pool, createRng(6), config);
    const valid = await generateConceptConversation({ concepts, images, times, seed: 6 });
    let calls = 0;
    const llm = createStubLlm(
      () => {
        calls++;
        if (calls === 1) return JSON.stringify({ sessions: valid.sessions.slice(0, 4), qa: valid.qa });
        return JSON.stringify({ sessions: valid.sessions, qa: valid.qa });
      },
      { model: 'gen-model' },
    );
    const conversation = await generateConceptConversation({ concepts, images, times, seed: 6, llm });
    expect(conversation).toMatchObject({ generator: 'gen-model', offline: false, attempts: 2 });
    expect(llm.calls[1]!.messages[1]!.content).toMatch(/REJECTED: expected 5 sessions, got 4/);
    expect(llm.calls[0]!.messages[1]!.content).toContain('FIXED TIMESTAMPS');
  });

  it('gives up after maxAttempts with a SynthError', async () => {
    const concepts = sampleConceptGroup(pool, createRng(6), config);
    const llm = createStubLlm(() => JSON.stringify({ sessions: [], qa: [] }));
    await expect(
      generateConceptConversation({
        concepts,
        images,
        times,
        seed: 6,
        llm,
        config: { concepts: { maxAttempts: 3 } },
      }),
    ).rejects.toThrow(/after 3 attempts/);
    expect(llm.calls).toHaveLength(3);
  });
});

describe('concept sessions for a real m2a plan', () => {
  it('samples the group from the plan and validates', async () => {
    const user = fixtureUsers(4)[1]!;
    const plan = buildUserPlan(
      { ...user, images: fixtureImages() },
      { config: { profile: 'm2a' }, seed: 42 },
    );
    const conversation = await conceptConversationForPlan(plan, { seed: 3 });
    expect(conversation.sessions.length).toBeGreaterThanOrEqual(5);
    expect(conversation.concepts.every((c) => plan.concepts.some((p) => p.id === c.id))).toBe(true);
    const times = conversation.sessions.map((s) => Date.parse(s.date_time));
    expect(times[0]!).toBeGreaterThan(Date.parse(plan.horizon.start));
    expect(times.at(-1)!).toBeLessThan(Date.parse(plan.horizon.end));
  });
});
