/**
 * Issue 27's text figures (src/validate/text-figures.ts): each is 0 (or under its bound) on the
 * clean fixture corpus and catches a planted defect of its class — a sentence template on many
 * user turns, a stock opener or appended clause, an ungrammatical join, a lower-cased day name,
 * a reply that praises a goal the user just gave up or ignores a drift.
 */
import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/schemas/dialogue.js';
import { ValidateConfig } from '../../src/schemas/validate-config.js';
import { readSentences } from '../../src/util/nlp.js';
import { createFidelityMeter } from '../../src/validate/fidelity.js';
import { PARSE_EVERY } from '../../src/validate/fidelity-measure.js';
import { RULE_CHECKS } from '../../src/validate/rules/index.js';
import { turnAsides } from '../../src/validate/text-asides.js';
import { fragmentProblems } from '../../src/validate/text-shape.js';
import { indexUser, type RuleFailure, type UserBundle } from '../../src/validate/types.js';
import { buildFixtureCorpus, buildFixtureUser } from './fixture.js';

const options = { config: ValidateConfig.parse({}), imageExists: () => true };

function measure(bundles: UserBundle[]) {
  const meter = createFidelityMeter();
  for (const bundle of bundles) {
    const index = indexUser(bundle);
    const failures = new Map<string, RuleFailure[]>();
    for (const check of RULE_CHECKS) failures.set(check.name, check.run(index, options));
    meter.addUser(index, failures);
  }
  return meter.finish();
}

const corpus = () => [buildFixtureUser('user-0001'), buildFixtureUser('user-0002')];
const userTurns = (b: UserBundle) =>
  b.dialogue.sessions.flatMap((s) => s.turns).filter((t) => t.speaker === 'user');
const replyTo = (b: UserBundle, turn: Turn) => {
  const session = b.dialogue.sessions.find((s) => s.turns.includes(turn))!;
  return session.turns[session.turns.indexOf(turn) + 1]!;
};

/** Plans a goal the user gives up on the fixture's first user turn, with a reply next to it. */
function plantAbandonedGoal(b: UserBundle, reply: string): void {
  const turn = userTurns(b)[0]!;
  b.plan.goals.push({
    id: 'goal-x',
    description: 'run a marathon',
    keywords: ['marathon'],
    states: [{ time: turn.time, status: 'abandoned' }],
  } as unknown as UserBundle['plan']['goals'][number]);
  b.plan.slots.push({
    ...b.plan.slots[0]!,
    id: 'slot-goal-x',
    kind: 'goal',
    refId: 'goal-x',
    keywords: ['marathon'],
    time: turn.time,
    imageId: null,
  });
  turn.slots = [...turn.slots, 'slot-goal-x'];
  turn.text = 'Honest update: I gave up on trying to run a marathon; it was not working out.';
  replyTo(b, turn).text = reply;
}

describe('text fidelity figures', () => {
  it('are within bounds on the clean fixture corpus', () => {
    const figures = measure(corpus());
    for (const name of [
      'ungrammatical_joins',
      'lowercase_proper_nouns',
      'assistant_reply_disagreements',
      'user_repeated_lead_ins',
      'user_stacked_asides',
      'reflexive_binding_errors',
    ] as const)
      expect(figures[name]!.count, name).toBe(0);
  });

  it.each([
    [
      'user_template_share',
      (b: UserBundle[]) => {
        // A run large enough to measure (≥ 100 parsed user turns), one template on every user turn.
        b.push(...buildFixtureCorpus(45).slice(2));
        for (const turn of b.flatMap(userTurns))
          turn.text = `I really love the ${turn.id.length} things about my ${turn.round} photos.`;
      },
    ],
    [
      'user_stock_openings',
      (b: UserBundle[]) => {
        b.push(...buildFixtureCorpus(45).slice(2));
        for (const turn of b.flatMap(userTurns)) turn.text = `Oh wow, guess what, ${turn.text}`;
      },
    ],
    [
      'user_stock_endings',
      (b: UserBundle[]) => {
        b.push(...buildFixtureCorpus(45).slice(2));
        for (const turn of b.flatMap(userTurns)) turn.text = `${turn.text} I am worried I will get it wrong.`;
      },
    ],
    [
      'ungrammatical_joins',
      (b: UserBundle[]) => {
        const turn = b[0]!.dialogue.sessions[0]!.turns.find((t) => t.round % PARSE_EVERY === 0)!;
        turn.text = 'Should I compare a few the photos I take options for you?';
      },
    ],
    [
      'user_repeated_lead_ins',
      (b: UserBundle[]) => {
        const turn = userTurns(b[0]!).find((t) => t.round % PARSE_EVERY === 0)!;
        turn.text = 'Quick thought, I swim on Mondays. Quick thought, the pool was cold today.';
      },
    ],
    [
      'user_stacked_asides',
      (b: UserBundle[]) => {
        const turn = userTurns(b[0]!).find((t) => t.round % PARSE_EVERY === 0)!;
        turn.text = 'I swim on Mondays. By the way, my bike has a flat. Incidentally, it snowed in Leeds.';
      },
    ],
    [
      'reflexive_binding_errors',
      (b: UserBundle[]) => {
        const turn = userTurns(b[0]!).find((t) => t.round % PARSE_EVERY === 0)!;
        turn.text = 'My aunt Rosa and I are closer now - I drove me to the airport in May.';
      },
    ],
    [
      'lowercase_proper_nouns',
      (b: UserBundle[]) => {
        userTurns(b[0]!)[0]!.text = 'I have dim sum with friends every sunday morning.';
        userTurns(b[0]!)[1]!.text = 'I could eat thai green curry every day.';
      },
    ],
    [
      'assistant_reply_disagreements',
      (b: UserBundle[]) =>
        plantAbandonedGoal(
          b[0]!,
          'Nice, run a marathon - what a great goal; keep training for the marathon!',
        ),
    ],
  ])('catch a planted defect: %s', (name, plant) => {
    const bundles = corpus();
    plant(bundles);
    const figure = measure(bundles)[name]!;
    expect(figure.count).toBeGreaterThan(name === 'lowercase_proper_nouns' ? 1 : 0);
    expect(figure.ok).toBe(false);
  });

  it('accept a reply that takes the given-up goal as given up', () => {
    const bundles = corpus();
    plantAbandonedGoal(
      bundles[0]!,
      'Okay, trying to run a marathon is off the list then - understood; I will not bring it up unless you do.',
    );
    expect(measure(bundles).assistant_reply_disagreements!.count).toBe(0);
  });

  it('flag a reply next to a drift that talks about something else', () => {
    const bundles = corpus();
    plantAbandonedGoal(bundles[0]!, 'Lovely photo - where was it taken?');
    expect(measure(bundles).assistant_reply_disagreements!.count).toBe(1);
  });

  it('read lead-ins, asides and reflexive binding with the parser', () => {
    const read = (text: string) => turnAsides(text);
    expect(read('Honestly, tea is fine. Honestly, so is coffee.').repeatedLeadIns).toEqual(['honestly']);
    expect(read('Honestly, tea is fine. Frankly, so is coffee.').repeatedLeadIns).toEqual([]);
    expect(read('I like tea. I like coffee too.').repeatedLeadIns).toEqual([]);
    expect(read('For what it is worth, I moved. Side note: the lift is broken.').asides).toBe(2);
    expect(read('I moved in March. The lift is broken.').asides).toBe(0);
    expect(read('Then I thanked me for it.').reflexive).toEqual(['i thanked me']);
    expect(read('We have finally forgiven us.').reflexive).toEqual(['we have finally forgiven us']);
    expect(read('My cousin looked after me. I asked her to call me.').reflexive).toEqual([]);
    expect(read('I let them help me, and I told myself to rest.').reflexive).toEqual([]);
  });

  it('read fragments with the parser, not a phrase list', () => {
    const flagged = (text: string) => readSentences(text).flatMap(fragmentProblems);
    expect(flagged('Do you want a shorter version of the plan for on your next day off?')).not.toEqual([]);
    expect(flagged('No the gym in my suggestions, of course.')).not.toEqual([]);
    expect(flagged('I gave up on the plan to run a marathon.')).toEqual([]);
    expect(flagged('Please never suggest karaoke, it is a hard no.')).toEqual([]);
  });
});
