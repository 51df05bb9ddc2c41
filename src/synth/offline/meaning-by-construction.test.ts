/**
 * The offline realizer passes the meaning reader by construction: every catalogue item, as a
 * stated preference and as every kind of drift (add, delete, modify to either polarity, a flip of
 * the same item; explicit and implicit; with and without a condition), realized with every style
 * marker switched on, reads back as the plan says.
 */
import { describe, expect, it } from 'vitest';
import {
  CAUSES_BY_DIRECTION,
  CONDITIONS,
  driftDirection,
  IMPLICIT_CAUSES,
} from '../../plan/catalogue/life-catalogue.js';
import { PREFERENCE_CATALOGUE } from '../../plan/catalogue/preference-catalogue.js';
import type { DriftEvent, EvidenceSlot, Preference } from '../../schemas/plan.js';
import { createRng } from '../../util/rng.js';
import { meaningProblems, slotExpectations } from '../meaning.js';
import type { PlanView } from '../plan-view.js';
import { composeUserTurn, type RoundContext } from './compose.js';
import { STYLE_CLAUSES } from './style-clauses.js';

const T = '2024-03-01T10:00:00.000Z';
const conditions = Object.values(CONDITIONS).flat();

function pref(
  id: string,
  option: { item: string; polarity: 'like' | 'dislike'; keywords: string[] },
  when: string | null,
): Preference {
  return {
    id,
    category: 'food',
    slot: 'x',
    item: option.item,
    polarity: option.polarity,
    // All of the option's keywords, as the planner gives them ("jasmine", "tea").
    keywords: [...option.keywords],
    validFrom: T,
    validUntil: null,
    origin: 'drift',
    condition: when === null ? null : { context: 'situation', when },
  };
}

function realize(preferences: Preference[], drift: DriftEvent[], slot: EvidenceSlot, seed: number): string {
  const plan = { preferences, drift, people: [], goals: [], habits: [], concepts: [], images: [] };
  const everyStyle = {
    exclaim: 0.5,
    verbose: 0.5,
    terse: false,
    banks: Object.keys(STYLE_CLAUSES).map((bank) => [bank, 0.5] as const),
  };
  const ctx = {
    view: { plan } as unknown as PlanView,
    round: { round: 0, time: Date.parse(T), slots: [slot], noise: null, images: [] },
    state: { known: [] },
    style: everyStyle,
    topic: 'weekend plans',
    name: 'Mia',
  } as unknown as RoundContext;
  return composeUserTurn(ctx, createRng(seed, 'meaning'));
}

const options = PREFERENCE_CATALOGUE.flatMap((spec) => spec.options);
/** Another option of the same slot, as a planned `modify` draws it (jasmine green tea → bubble milk tea). */
const sibling = new Map(
  PREFERENCE_CATALOGUE.flatMap((spec) =>
    spec.options.map((option, i) => [option, spec.options[(i + 1) % spec.options.length]!] as const),
  ),
);

describe('offline realizer meaning', () => {
  it('states every catalogue preference with its polarity and condition', () => {
    const problems: string[] = [];
    options.forEach((option, i) => {
      const when = i % 2 === 0 ? null : conditions[i % conditions.length]!;
      const p = pref('p1', option, when);
      const slot = {
        id: 's1',
        kind: 'preference',
        refId: 'p1',
        sessionIndex: 0,
        round: 0,
        time: T,
        statement: '',
        keywords: p.keywords,
        imageId: null,
      } as const;
      for (let seed = 0; seed < 6; seed++) {
        const text = realize([p], [], slot, seed * 101 + i);
        for (const problem of meaningProblems(text, slotExpectations({ preferences: [p], drift: [] }, slot)))
          problems.push(`${text} → ${problem}`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('states every drift with its operation, polarities, condition and visibility', () => {
    const problems: string[] = [];
    options.forEach((option, i) => {
      const other = options[(i * 7 + 3) % options.length]!;
      const flipped = {
        ...option,
        polarity: option.polarity === 'like' ? ('dislike' as const) : ('like' as const),
      };
      const when = i % 3 === 0 ? conditions[i % conditions.length]! : null;
      const cases: Array<[DriftEvent['type'], Preference | null, Preference | null]> = [
        ['add', null, pref('new', option, when)],
        ['delete', pref('old', option, null), null],
        ['modify', pref('old', other, null), pref('new', option, when)],
        ['modify', pref('old', option, null), pref('new', flipped, when)],
      ];
      const near = sibling.get(option)!;
      if (near !== option) cases.push(['modify', pref('old', near, null), pref('new', option, when)]);
      for (const [type, previous, next] of cases) {
        for (const visibility of ['explicit', 'implicit'] as const) {
          const event: DriftEvent = {
            id: 'd1',
            type,
            time: T,
            preferenceId: next?.id ?? null,
            previousPreferenceId: previous?.id ?? null,
            cause:
              visibility === 'implicit'
                ? IMPLICIT_CAUSES[i % IMPLICIT_CAUSES.length]!
                : CAUSES_BY_DIRECTION[driftDirection(next, previous)][i % 5]!,
            visibility,
          };
          const preferences = [previous, next].filter((p): p is Preference => p !== null);
          const keywords = (next ?? previous)!.keywords;
          const slot = {
            id: 's1',
            kind: 'drift',
            refId: 'd1',
            sessionIndex: 0,
            round: 0,
            time: T,
            statement: '',
            keywords,
            imageId: null,
          } as const;
          for (let seed = 0; seed < 4; seed++) {
            const text = realize(preferences, [event], slot, seed * 31 + i);
            const found = meaningProblems(text, slotExpectations({ preferences, drift: [event] }, slot));
            if (visibility === 'implicit' && text.toLowerCase().includes(event.cause.toLowerCase()))
              found.push('implicit drift states its cause');
            // "a friend introduced me to it" comes after the thing it stands for is named.
            const lower = text.toLowerCase();
            const cause = lower.indexOf(event.cause.toLowerCase());
            if (
              next !== null &&
              cause >= 0 &&
              /\bit\b/.test(event.cause) &&
              lower.indexOf(next.item.toLowerCase()) > cause
            )
              found.push('the cause says "it" before the item is named');
            for (const problem of found) problems.push(`${type}/${visibility}: ${text} → ${problem}`);
          }
        }
      }
    });
    expect(problems.slice(0, 15)).toEqual([]);
  });
});
