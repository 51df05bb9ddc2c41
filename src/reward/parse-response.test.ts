import { describe, expect, it } from 'vitest';
import { extractAnswer, parseResponse, parseRetrieveQuery } from './parse-response.js';

describe('parseResponse', () => {
  it('reads think, answer and the order of blocks', () => {
    const parsed = parseResponse('  <think>why</think>\n<answer> (b) </answer>');
    expect(parsed).toMatchObject({
      think: 'why',
      thinkFirst: true,
      answer: '(b)',
      answerCount: 1,
      stray: '',
    });
  });

  it('reports stray text and think that is not first', () => {
    const parsed = parseResponse('hello <think>x</think><retrieve>{}</retrieve> bye');
    expect(parsed.thinkFirst).toBe(false);
    expect(parsed.stray).toBe('hello  bye');
    expect(parsed.retrieveCount).toBe(1);
  });
});

describe('parseRetrieveQuery', () => {
  it.each([
    ['{"keywords":"hotpot","start_time":null,"end_time":null}', true],
    ['{"keywords":"hotpot","start_time":"2024-03-05 14:07","end_time":"2024-03-06 09:00"}', true],
    ['{"keywords":"hotpot"}', true],
    ['{"keywords":"","start_time":null,"end_time":null}', false],
    ['{"keywords":"x","start_time":"2024-03-05T14:07","end_time":null}', false],
    ['{"keywords":"x","start_time":"2024-03-07 00:00","end_time":"2024-03-06 00:00"}', false],
    ['not json', false],
    ['[1]', false],
  ])('%s → ok=%s', (raw, ok) => {
    expect(parseRetrieveQuery(raw).ok).toBe(ok);
  });

  it('distinguishes JSON with a bad field from no JSON at all', () => {
    expect(parseRetrieveQuery('{"keywords":3}')).toMatchObject({ ok: false, json: true });
    expect(parseRetrieveQuery('{keywords}')).toMatchObject({ ok: false, json: false });
  });
});

describe('extractAnswer', () => {
  it('uses the answer block, null for a retrieve turn, else the text without think', () => {
    const text = '<think>a</think><answer>Paris</answer>';
    expect(extractAnswer(parseResponse(text), text)).toBe('Paris');
    const retrieve = '<think>a</think><retrieve>{"keywords":"x"}</retrieve>';
    expect(extractAnswer(parseResponse(retrieve), retrieve)).toBeNull();
    expect(extractAnswer(parseResponse('<think>a</think> plain'), '<think>a</think> plain')).toBe('plain');
  });
});
