import { describe, expect, it } from 'vitest';
import type { FakeChatRequest } from '../server.js';
import { modelAnswer, promptKind } from './index.js';
import { inOwnVoice, parseRealizerRounds } from './realizer.js';

const request = (messages: FakeChatRequest['messages'], name?: string): FakeChatRequest => ({
  model: 'fake',
  messages,
  format: 'json_schema',
  schema: undefined,
  index: 0,
  body:
    name === undefined ? {} : { response_format: { type: 'json_schema', json_schema: { name } }, seed: 3 },
});

const CHUNK = [
  'USER PROFILE: Ana Silva, 31, female, nurse in Porto; single. Ana is calm.',
  'PERSONALITY NOW (Big Five, 1-5): openness 3.0; conscientiousness 4.2 (organised, plans ahead); extraversion 2.0; agreeableness 3.0; neuroticism 3.0',
  'SESSION 2 TOPICS: preferences: tea, hobbies',
  'WRITE THESE ROUNDS:',
  '- round 4 at 2024-03-01 10:00; express: "Ana Silva likes jasmine tea" keywords: "jasmine tea"; image: two red apples on a mint background',
  '- round 5 at 2024-03-01 10:02; noise: correction',
  '- round 6 at 2024-03-01 10:04; free chat on the topics',
].join('\n');

describe('the fake model', () => {
  it('reads the realizer prompt: rounds, facts with keywords, images, noise, the user name', () => {
    const parsed = parseRealizerRounds(CHUNK);
    expect(parsed.name).toBe('Ana Silva');
    expect(parsed.topics).toEqual(['tea', 'hobbies']);
    expect(parsed.rounds).toEqual([
      {
        round: 4,
        facts: [{ statement: 'Ana Silva likes jasmine tea', keywords: ['jasmine tea'] }],
        images: ['two red apples on a mint background'],
        noise: null,
      },
      { round: 5, facts: [], images: [], noise: 'correction' },
      { round: 6, facts: [], images: [], noise: null },
    ]);
  });

  it('writes every round, facts in the user’s own voice with keywords verbatim, one <image> per image', () => {
    const answer = modelAnswer(
      request(
        [
          { role: 'system', content: 'x' },
          { role: 'user', content: CHUNK },
        ],
        'dialogue_chunk',
      ),
    ) as {
      turns: Array<{ round: number; user: string; assistant: string }>;
    };
    expect(answer.turns.map((t) => t.round)).toEqual([4, 5, 6]);
    const [first, second, third] = answer.turns;
    expect(first?.user).toContain('jasmine tea');
    expect(first?.user).not.toContain('Ana Silva');
    expect(first?.user.match(/<image>/g)).toHaveLength(1);
    expect(first?.assistant).not.toContain('<image>');
    expect(second?.user).toMatch(/correction|typo|mistyped|meant/i);
    expect(third?.user.toLowerCase()).toMatch(/tea|hobbies/);
    // Same prompt, same answer.
    expect(modelAnswer(request([{ role: 'user', content: CHUNK }], 'dialogue_chunk'))).toEqual(
      modelAnswer(request([{ role: 'user', content: CHUNK }], 'dialogue_chunk')),
    );
  });

  it('turns plan statements into the user’s own voice', () => {
    expect(inOwnVoice('Ana Silva likes jasmine tea', 'Ana Silva')).toBe('I like jasmine tea');
    expect(inOwnVoice("Li is Ana Silva's sister", 'Ana Silva')).toBe('Li is my sister');
    expect(inOwnVoice('Ana Silva watches horror films', 'Ana Silva')).toBe('I watch horror films');
  });

  it('judges by meaning of the words: a stated fact is expressed, a missing one is not', () => {
    const ask = (message: string) =>
      modelAnswer(
        request(
          [
            {
              role: 'user',
              content: `Fact: Ana Silva likes jasmine tea\nKeywords: jasmine tea\nUser message: ${message}`,
            },
          ],
          'slot_expressed',
        ),
      ) as { expressed: boolean };
    expect(ask('Honestly I love jasmine tea in the evening.').expressed).toBe(true);
    expect(ask('I went running today.').expressed).toBe(false);
  });

  it('grades reward items with the heuristic of their kind, per item id', () => {
    const content = [
      '### Item 0',
      'QUESTION: Which tea?',
      'REFERENCE: jasmine tea',
      'RESPONSE: jasmine tea',
      '',
      '### Item 1',
      'QUESTION: Which tea?',
      'REFERENCE: jasmine tea',
      'RESPONSE: black coffee',
    ].join('\n');
    const answer = modelAnswer(request([{ role: 'user', content }], 'judge_accuracy'));
    expect(answer).toEqual({
      results: [
        { id: 0, label: 'CORRECT' },
        { id: 1, label: 'WRONG' },
      ],
    });
  });

  it('recognises a prompt by its system message when no schema name is sent (json_object fallback)', () => {
    const kind = promptKind(
      request([
        { role: 'system', content: 'You review synthetic conversations between a user and an AI assistant' },
      ]),
    );
    expect(kind).toBe('session_judgement');
    expect(modelAnswer(request([{ role: 'user', content: 'hello' }]))).toBeUndefined();
  });
});
