import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { interpolateEachConversation } from '../../src/interpolate/index.js';
import {
  addedQaProblems,
  insertedBiographyProblems,
  insertedOtherSpeakerProblems,
  speakerPronouns,
} from '../../src/interpolate/locomo-qa.js';
import { buildUserPlan } from '../../src/plan/index.js';
import { sessionsForInsertion } from '../../src/synth/insert-sessions.js';
import { locomoAsk } from '../../src/synth/locomo-questions.js';
import { fixtureUsers } from '../plan/fixtures.js';

type Json = Record<string, unknown>;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const file = path.resolve(repoRoot, '../shared', 'data/locomo/locomo10.json');

/** A merged-record stand-in: Caroline's turns in sessions 1 and 2, Melanie's in 1. */
const conversation: Json = {
  speaker_a: 'Caroline',
  speaker_b: 'Melanie',
  session_1_date_time: '1:56 pm on 8 May, 2023',
  session_1: [
    { speaker: 'Caroline', dia_id: 'D1:1', text: 'I have started learning the guitar.' },
    { speaker: 'Melanie', dia_id: 'D1:2', text: 'I work as a retired fisherman.' },
  ],
  session_2_date_time: '10:00 am on 20 May, 2023',
  session_2: [{ speaker: 'Caroline', dia_id: 'D2:1', text: 'These days I cannot stand instant noodles.' }],
};
const kinds = (qa: { question: string; answer: string; evidence: string[]; category: number }) =>
  addedQaProblems(qa, conversation, 'Caroline').map((p) => p.kind);

describe('questions added to a LoCoMo host', () => {
  it('accept a LoCoMo-form question with its category and evidence', () => {
    expect(
      kinds({
        question: 'What is Caroline learning?',
        answer: 'The guitar',
        evidence: ['D1:1'],
        category: 4,
      }),
    ).toEqual([]);
    expect(
      kinds({
        question: 'When did Caroline start learning the guitar?',
        answer: '8 May 2023',
        evidence: ['D1:1'],
        category: 2,
      }),
    ).toEqual([]);
    expect(
      kinds({
        question: "How has Caroline's taste changed?",
        answer: 'Guitar, then no noodles',
        evidence: ['D1:1', 'D2:1'],
        category: 1,
      }),
    ).toEqual([]);
  });

  it('catch planted defects of each class', () => {
    // A Persona-MME lead-in, first person, options with none given.
    expect(
      kinds({
        question: 'It popped into my head on the way home. How many balls did Caroline show?',
        answer: '4',
        evidence: ['D1:1'],
        category: 4,
      }),
    ).toContain('form');
    expect(
      kinds({
        question: 'What am I learning, Caroline?',
        answer: 'The guitar',
        evidence: ['D1:1'],
        category: 4,
      }),
    ).toContain('form');
    expect(
      kinds({
        question: 'Which of these matches how Caroline feels about noodles?',
        answer: 'Dislikes them',
        evidence: ['D2:1'],
        category: 4,
      }),
    ).toContain('form');
    expect(
      kinds({ question: 'What is she learning?', answer: 'The guitar', evidence: ['D1:1'], category: 4 }),
    ).toContain('form');
    // Categories the content or evidence contradict: a date filed as single-hop, one session as multi-hop, a wrong date.
    expect(
      kinds({
        question: 'When did Caroline start learning the guitar?',
        answer: '8 May 2023',
        evidence: ['D1:1'],
        category: 4,
      }),
    ).toContain('category');
    expect(
      kinds({
        question: 'What is Caroline learning?',
        answer: 'The guitar',
        evidence: ['D1:1'],
        category: 1,
      }),
    ).toContain('category');
    expect(
      kinds({
        question: "How has Caroline's taste changed?",
        answer: 'x',
        evidence: ['D1:1', 'D2:1'],
        category: 4,
      }),
    ).toContain('category');
    expect(
      kinds({
        question: 'When did Caroline start learning the guitar?',
        answer: '20 May 2023',
        evidence: ['D1:1'],
        category: 2,
      }),
    ).toContain('category');
    // Evidence: not a host dia_id, or the other speaker's turn.
    expect(
      kinds({
        question: 'What is Caroline learning?',
        answer: 'The guitar',
        evidence: ['turn-0007'],
        category: 4,
      }),
    ).toContain('evidence');
    expect(
      kinds({
        question: 'What does Caroline do for work?',
        answer: 'Fisherman',
        evidence: ['D1:2'],
        category: 4,
      }),
    ).toContain('evidence');
  });

  it('catch an inserted turn saying the generated person’s biography under the host name', () => {
    expect(insertedBiographyProblems(conversation, [1, 2], ['retired fisherman', 'Seville'])).toEqual([
      { path: 'conversation.session_1[1].text', value: 'retired fisherman' },
    ]);
    expect(insertedBiographyProblems(conversation, [2], ['retired fisherman'])).toEqual([]);
  });

  it('catch an inserted turn naming the host’s other speaker (a namesake in the generated life)', () => {
    const withNamesake: Json = {
      ...conversation,
      session_2: [{ speaker: 'Caroline', dia_id: 'D2:1', text: 'My cousin Melanie made me laugh today.' }],
    };
    expect(insertedOtherSpeakerProblems(withNamesake, [2], ['Melanie', 'Assistant'])).toEqual([
      { path: 'conversation.session_2[0].text', value: 'Melanie' },
    ]);
    expect(insertedOtherSpeakerProblems(conversation, [2], ['Melanie'])).toEqual([]);
  });

  it('rewrite first-person plan questions, leaving out those LoCoMo cannot ask', () => {
    const base = { unanswerable: false, answer: 'My partner got me into it' };
    expect(
      locomoAsk({
        ...base,
        question: 'It popped into my head on the way home. Why did I begin to like jazz?',
      }),
    ).toEqual({
      question: 'Why did {user} start to like jazz?',
      answer: "{user}'s partner got {them} into it",
      kind: 'recall',
    });
    expect(
      locomoAsk({
        ...base,
        question: 'For a free evening, which of these would suit me best?',
        openable: false,
      }),
    ).toBeNull();
    expect(
      locomoAsk({
        ...base,
        question: 'Could you walk me through compound interest at a level that fits my background?',
      }),
    ).toBeNull();
  });
});

describe.skipIf(!existsSync(file))('LoCoMo questions over the real locomo10.json', () => {
  it('reads the speaker’s pronouns from the host’s observations', () => {
    const host = JSON.parse(readFileSync(file, 'utf8')) as Json[];
    expect(speakerPronouns(host[0]!, 'Caroline')).toEqual({ their: 'her', them: 'her' });
    expect(speakerPronouns(host[1]!, 'Jon')).toEqual({ their: 'his', them: 'him' });
  });

  it('adds m2a-profile LoCoMo questions in LoCoMo form, categories 1–4 by content, dates from the merged sessions', async () => {
    const host = JSON.parse(readFileSync(file, 'utf8')) as Json[];
    const seen = new Map<number, number>();
    let added = 0;
    for (const [u, user] of fixtureUsers(6, 11).entries()) {
      const plan = buildUserPlan({ ...user, images: [] }, { config: { profile: 'm2a' }, seed: 42 });
      const insert = await sessionsForInsertion(plan, { seed: 3, withoutIdentity: true });
      const { document, reports } = interpolateEachConversation({
        host: [host[u]!],
        users: [insert],
        seed: 5,
      });
      const report = reports[0]!;
      const record = document[0] as Json;
      const conv = record.conversation as Json;
      const mine = (
        record.qa as Array<{ question: string; answer: string; evidence: string[]; category: number }>
      ).slice((host[u]!.qa as unknown[]).length);
      for (const qa of mine) {
        expect(addedQaProblems(qa, conv, conv.speaker_a as string), qa.question).toEqual([]);
        seen.set(qa.category, (seen.get(qa.category) ?? 0) + 1);
      }
      added += mine.length;
      for (const figure of Object.values(report.fidelity!)) expect(figure.count).toBe(0);
      expect(report.fidelity!.added_question_form.of).toBe(mine.length);
    }
    expect(added).toBeGreaterThan(10);
    // Temporal questions and recall ones are both there; none is adversarial (5: left out).
    expect(seen.get(2) ?? 0).toBeGreaterThan(0);
    expect((seen.get(1) ?? 0) + (seen.get(4) ?? 0)).toBeGreaterThan(0);
    expect(seen.has(5)).toBe(false);
  });
});
