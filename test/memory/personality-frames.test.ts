import { describe, expect, it } from 'vitest';
import { inferPersonality, readMessage } from '../../src/memory/gold/personality-reading.js';
import type { BigFiveTrait } from '../../src/schemas/common.js';

/**
 * The frame reader's rules (src/memory/gold/personality-frames.ts), each on a sentence that holds
 * the frame and on one that holds the same words where they show nothing or the other side.
 */
const side = (text: string, trait: BigFiveTrait) => readMessage(text)[trait];

describe('topics read with the speaker’s stance', () => {
  it('reads the side of what the speaker is for, the other side of what they are against', () => {
    expect(side('I spent the whole weekend at parties and loved it.', 'extraversion')).toBe(1);
    expect(side('I skipped the party, crowds drain me.', 'extraversion')).toBe(-1);
    expect(side("I don't really enjoy parties.", 'extraversion')).toBe(-1);
    expect(side("I'd rather stay in than go out.", 'extraversion')).toBe(-1);
    expect(side("I'd rather lose an argument than upset anyone.", 'agreeableness')).toBe(1);
    // What nothing beats is what the speaker likes best: its "nothing" denies nothing.
    expect(side('Nothing makes me happier than a big party with all my friends.', 'extraversion')).toBe(1);
    expect(side('Nothing relaxes me like a big party with all my friends.', 'extraversion')).toBe(1);
    expect(side('Nothing beats a crowded dance floor on a Friday.', 'extraversion')).not.toBe(-1);
  });

  it('reads nothing without a stance, about someone else, or in a question', () => {
    expect(side('I went to a party on Saturday.', 'extraversion')).toBe(0);
    expect(side('My brother loves parties, he goes every weekend.', 'extraversion')).toBe(0);
    expect(side('Can you help me plan a party for my son?', 'extraversion')).toBe(0);
  });

  it('takes the stance of the topic’s own clause and verb', () => {
    // "skipped" is about the mixer; the evening alone has no stance of its own.
    expect(side('I skipped the mixer and spent the evening reading by myself.', 'extraversion')).toBe(0);
    expect(side('I turned down the invitation; a quiet night in sounded better.', 'extraversion')).toBe(-1);
  });
});

describe('acts and self-descriptions', () => {
  it('reads an act the speaker does, and its denial when the act turns around', () => {
    expect(side('I panicked when my boss called me in.', 'neuroticism')).toBe(1);
    expect(side("I didn't panic at all when the flight was cancelled.", 'neuroticism')).toBe(-1);
    expect(side('Nothing much rattles me.', 'neuroticism')).toBe(-1);
    expect(side('Things rarely rattle me, so I take it as it comes.', 'neuroticism')).toBe(-1);
    // A thing that no longer bothers the speaker is a changed taste, not composure.
    expect(side('Durian does not bother me any more, a colleague kept recommending it.', 'neuroticism')).toBe(
      0,
    );
    // Positive emotions, a facet of extraversion.
    expect(side('I am in such a great mood today.', 'extraversion')).toBe(1);
    expect(side('I keep forgetting to pay my bills.', 'conscientiousness')).toBe(-1);
    // "it" after a verb is its object: the speaker still does the act.
    expect(side('I will probably sort it out at the last minute.', 'conscientiousness')).toBe(-1);
    expect(side('I have not really planned anything yet.', 'conscientiousness')).toBe(-1);
  });

  it('reads no act someone else does, one wished for, or one the speaker rejects', () => {
    expect(side('My boss panics about every deadline.', 'neuroticism')).toBe(0);
    expect(side('I want to get organised this year.', 'conscientiousness')).toBe(0);
    expect(side("I'd love to be the kind of person who keeps calm in a crisis.", 'neuroticism')).toBe(0);
    expect(side("I can't stand leaving things till the last minute.", 'conscientiousness')).toBe(0);
    // An act done to the speaker is the doer's: "shouted at me" is not the speaker shouting.
    expect(side('The driver shouted at me for no reason.', 'agreeableness')).toBe(0);
    expect(side('I shouted at the driver for no reason.', 'agreeableness')).toBe(-1);
    // A rejected alternative ("instead of …", "rather than …") is what the speaker did not do.
    expect(side('Instead of shouting at the driver I let it go.', 'agreeableness')).not.toBe(-1);
    expect(side('Rather than panicking, I made a list and rang the bank.', 'neuroticism')).not.toBe(1);
  });

  it('reads a marker adjective said of the speaker, turned around when denied', () => {
    expect(side("I'm a bit of a loner, really.", 'extraversion')).toBe(-1);
    expect(side("I'm not very organised, if I'm honest.", 'conscientiousness')).toBe(-1);
    expect(side('My sister is so organised.', 'conscientiousness')).toBe(0);
    expect(side('I can not get enough of a tidy minimalist home.', 'conscientiousness')).toBe(0);
    expect(side('I have always loved budget travel.', 'conscientiousness')).toBe(0);
  });

  it('reads a chat sentence that leaves out its subject, not a request', () => {
    expect(side('Spent Saturday hosting a barbecue for twenty people.', 'extraversion')).toBe(1);
    expect(side('Keep calm and carry on.', 'neuroticism')).toBe(0);
  });

  it('reads no mood from the body or from a question', () => {
    expect(readMessage("I'm so tired after the gym.").neuroticism).toBe(0);
    expect(readMessage('How can I be less anxious before interviews?').neuroticism).toBe(0);
    expect(readMessage("I wasn't bothered at all, these things happen.").neuroticism).toBe(-1);
  });
});

describe('a window of messages', () => {
  it('grades a trait from two messages on one side and says not enough evidence for one', () => {
    const two = inferPersonality([
      'I kept to myself all weekend.',
      'Big crowds wear me out, so I left early.',
    ]);
    expect(two.extraversion.score).toBe(2);
    expect(
      inferPersonality(['I kept to myself all weekend.', 'Thanks for the recipe.']).extraversion.score,
    ).toBe(3);
  });
});
