import { describe, expect, it } from 'vitest';
import { QaConfig } from '../schemas/plan-parts.js';
import { inSituTimes, sessionEndTimes } from './ask-times.js';

/** Sessions of the given rounds, one a day from 1 Jan 2025, one minute between rounds. */
function sessions(...rounds: number[]) {
  return {
    sessions: rounds.map((count, i) => ({
      start: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      rounds: count,
      roundGapMinutes: 1,
    })),
  } as unknown as Parameters<typeof inSituTimes>[0];
}

describe('inSituTimes', () => {
  const config = QaConfig.parse({ personaMemMinTokens: 1_000, tokensPerRound: 100 });

  it('asks PersonaMem questions only at session ends whose rounds so far reach the context length', () => {
    // Rounds so far: 4, 8, 12, 16 → 400, 800, 1,200, 1,600 tokens at 100 a round.
    const plan = sessions(4, 4, 4, 4);
    const ends = sessionEndTimes(plan);
    expect(inSituTimes(plan, { family: 'personamem' }, config)).toEqual([ends[2], ends[3]]);
    // Other families: every session end after the first.
    expect(inSituTimes(plan, { family: 'persona-mme' }, config)).toEqual(ends.slice(1));
    expect(inSituTimes(plan, { family: 'locomo' }, config)).toEqual(ends.slice(1));
  });

  it('leaves no in-situ time when the whole history falls short, and every one when the minimum is 0', () => {
    const plan = sessions(2, 2, 2);
    expect(inSituTimes(plan, { family: 'personamem' }, config)).toEqual([]);
    const anywhere = QaConfig.parse({ personaMemMinTokens: 0 });
    expect(inSituTimes(plan, { family: 'personamem' }, anywhere)).toEqual(sessionEndTimes(plan).slice(1));
  });

  it("defaults to the real questions_32k.csv's shortest context at 70 tokens a round (223 rounds)", () => {
    const defaults = QaConfig.parse({});
    expect(defaults.personaMemMinTokens).toBe(15_560);
    const plan = sessions(100, 100, 22, 1, 50);
    const ends = sessionEndTimes(plan);
    expect(inSituTimes(plan, { family: 'personamem' }, defaults)).toEqual([ends[3], ends[4]]);
  });

  it('asks one minute after the last round of each session', () => {
    const plan = sessions(3);
    expect(sessionEndTimes(plan)).toEqual([Date.UTC(2025, 0, 1) + 3 * 60_000]);
  });
});
