import { describe, expect, it } from 'vitest';
import { inferPersonality, readMessage } from '../../src/memory/gold/personality-reading.js';

/**
 * The personality reader on sentences written for this test (not taken from any phrase bank):
 * a trait word inside a clause of condition or time ("when stressed", "before I forget") and an
 * apology ("I am sorry for …") say nothing about the speaker's disposition; the same words said
 * of the speaker still do.
 */
describe('the personality reader reads the speaker, not a circumstance', () => {
  it('reads nothing from a trait word in a clause of condition or time', () => {
    const circumstances = [
      'Hot soup is my go-to, but only when stressed.',
      'I always order the spicy noodles when I am stressed out.',
      'If I ever got anxious about flying, I would take the train.',
      'I keep a spare key at my sister’s in case I forget mine.',
      'Before I forget, my flat is number 14.',
      'Unless I panic at the last moment, I will give the talk on Monday.',
      'When I feel overwhelmed I just go for a swim.',
    ];
    for (const text of circumstances) {
      const reading = readMessage(text);
      expect(reading.neuroticism, text).toBe(0);
      expect(reading.conscientiousness, text).toBe(0);
    }
  });

  it('still reads the same words when the speaker says them of themselves', () => {
    expect(readMessage('I get stressed before every exam.').neuroticism).toBe(1);
    expect(readMessage('Honestly, I worry about money all the time.').neuroticism).toBe(1);
    expect(readMessage('I panic whenever the phone rings.').neuroticism).toBe(1);
    expect(readMessage('I forget my keys nearly every morning.').conscientiousness).toBe(-1);
    expect(readMessage('Before the meeting I was so nervous.').neuroticism).toBe(1);
  });

  it('reads an apology as no mood, a self-pitying "I feel sorry" as one', () => {
    const apologies = [
      'I am sorry for the long message.',
      "I'm really sorry about the mix-up yesterday.",
      'I am so sorry to bother you again with this.',
      'Sorry, I am sorry if that came out wrong.',
    ];
    expect(inferPersonality(apologies).neuroticism.score).toBe(3);
    for (const text of apologies) expect(readMessage(text).neuroticism, text).toBe(0);
    expect(readMessage('I feel sorry for myself most evenings.').neuroticism).toBe(1);
  });

  it('grades a window of conditional preferences as not enough evidence', () => {
    const window = [
      'I love a big bowl of ramen, mostly when stressed.',
      'Chocolate is my weakness when I am stressed.',
      'If I am anxious, I put on some jazz.',
      'Can you find me a ramen place near the office?',
    ];
    expect(inferPersonality(window).neuroticism.score).toBe(3);
    expect(
      inferPersonality([...window, 'I am so anxious lately.', 'I worry all the time.']).neuroticism.score,
    ).toBe(4);
  });
});
