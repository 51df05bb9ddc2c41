/**
 * The fake teacher's personality_inference answer: what the fake wrote decides for its own
 * messages; other text is read as the gold reader of several messages reads it. No stock-phrase
 * cue list decides (test/support/cue-list-personality.ts is the contrast).
 */
import { describe, expect, it } from 'vitest';
import { personalityTargetFromText } from '../../../../test/support/cue-list-personality.js';
import type { FakeChatRequest } from '../server.js';
import { FREE_TRAITS } from './free-writing.js';
import { teacherAnswer } from './memory.js';
import { noteWritten } from './written.js';

const neutral = { openness: 3, conscientiousness: 3, extraversion: 3, agreeableness: 3, neuroticism: 3 };

/** A personality_inference request as the memory stage sends it (its JSON input). */
function ask(latest: string, earlier: string[] = []): FakeChatRequest {
  let index = 0;
  const turn = (text: string) => ({
    id: `u:S0:T${index}`,
    index: index++,
    speaker: 'user',
    text,
    images: [],
  });
  const context = earlier.map(turn);
  const input = { time: '2024-03-01T10:00:00.000Z', turn: turn(latest), context, personality: 'moderate' };
  return {
    model: 'fake',
    messages: [
      { role: 'system', content: "Infer the user's Big Five personality scores (integers 1-5)." },
      { role: 'user', content: JSON.stringify(input) },
    ],
    format: 'json_schema',
    schema: undefined,
    index: 0,
    body: {},
  };
}

describe('the fake teacher reads personality without a shared cue list', () => {
  it('grades its own message by the trait lines it wrote into it, 3 for the rest', () => {
    const text = `I'd pick oolong over most things. ${FREE_TRAITS.neuroticism[1]}`;
    noteWritten(text, { traits: { neuroticism: 4 } });
    expect(teacherAnswer('personality_inference', ask(text))).toEqual({ ...neutral, neuroticism: 4 });
    // A message it wrote to show nothing stays 3, whatever a cue list would make of it.
    const plain = 'Thanks so much, I keep worrying about the oolong!';
    noteWritten(plain, { traits: {} });
    expect(personalityTargetFromText(plain, neutral).extraversion).not.toBe(3);
    expect(teacherAnswer('personality_inference', ask(plain))).toMatchObject({ extraversion: 3 });
  });

  it('reads text it did not write from several messages, as the gold reader does', () => {
    const earlier = ['I get stressed out before every deadline.', 'Can you find me a quiet café?'];
    const latest = 'Honestly I worry about the move all the time.';
    expect(teacherAnswer('personality_inference', ask(latest, earlier))).toEqual({
      ...neutral,
      neuroticism: 4,
    });
    // One message is not enough evidence, and a stock phrase is no cue: the cue list says 4 here.
    const stock = 'I feel more organized lately, guess what!';
    expect(personalityTargetFromText(stock, neutral).conscientiousness).toBe(4);
    expect(teacherAnswer('personality_inference', ask(stock))).toEqual(neutral);
  });
});
