import { describe, expect, it } from 'vitest';
import { InterpolationError } from '../../src/errors/index.js';
import { formatLocomoTime, interpolateIntoHost, parseLocomoTime } from '../../src/interpolate/index.js';
import { sessionsForInsertion } from '../../src/synth/insert-sessions.js';
import { makeLocomoFixture } from '../support/locomo-fixture.js';
import { makePlanFixture } from '../support/plan-fixture.js';

type Json = Record<string, unknown>;
const plan = makePlanFixture({ seed: 11, rounds: 40, sessionRounds: [6, 8] });

async function insertSessions(count: number) {
  return sessionsForInsertion(plan, { seed: 1, count });
}

function sessionTimes(conversation: Json): number[] {
  return Object.keys(conversation)
    .map((key) => /^session_(\d+)_date_time$/.exec(key))
    .filter((m) => m !== null)
    .map((m) => [Number(m![1]), parseLocomoTime(conversation[m![0]] as string)] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, t]) => t);
}

describe('interpolateIntoHost (LoCoMo fixture)', () => {
  it('inserts N sessions at τ_j between two host sessions and renumbers the rest', async () => {
    const host = makeLocomoFixture();
    const insert = await insertSessions(3);
    const { document, report } = interpolateIntoHost({
      host,
      format: 'locomo',
      sessions: insert,
      seed: 5,
      position: 2,
    });
    const merged = (document as Json).conversation as Json;
    expect(report.position).toBe(2);
    expect(report.mergedSessions).toBe(7);
    expect(report.renumbered).toEqual({ '3': 6, '4': 7 });
    // τ_j = t_start + j/(N+1)·(t_end − t_start), floored to the minute; over a gap of days a
    // time at night (before 08:00 or from 22:00) moves to the same day's waking hours.
    const tStart = parseLocomoTime(host.conversation.session_2_date_time as string);
    const tEnd = parseLocomoTime(host.conversation.session_3_date_time as string);
    const day = 86_400_000;
    const hour = 3_600_000;
    let moved = 0;
    for (let j = 1; j <= 3; j++) {
      const tau = Math.floor((tStart + (j / 4) * (tEnd - tStart)) / 60_000) * 60_000;
      const local = tau % day;
      const expected = local < 8 * hour ? tau + 8 * hour : local >= 22 * hour ? tau - 10 * hour : tau;
      if (expected !== tau) moved++;
      expect(merged[`session_${2 + j}_date_time`]).toBe(formatLocomoTime(expected));
      const at = parseLocomoTime(merged[`session_${2 + j}_date_time`] as string) % day;
      expect(at >= 8 * hour && at < 22 * hour).toBe(true);
    }
    expect(moved).toBeGreaterThan(0);
    const times = sessionTimes(merged);
    expect(times).toHaveLength(7);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    // Inserted turns: LoCoMo shape, dia_ids D<session>:<turn> from 1.
    const inserted = merged.session_3 as Json[];
    expect(inserted[0]).toMatchObject({ speaker: 'Nadia', dia_id: 'D3:1' });
    expect(inserted.every((turn, t) => turn.dia_id === `D3:${t + 1}`)).toBe(true);
    expect(inserted.some((turn) => String(turn.text).includes('<image>'))).toBe(false);
  });

  it('keeps every host turn byte for byte apart from the renumbered dia_id', async () => {
    const host = makeLocomoFixture();
    const original = JSON.parse(JSON.stringify(host)) as typeof host;
    const { document } = interpolateIntoHost({
      host,
      format: 'locomo',
      sessions: await insertSessions(2),
      seed: 1,
      position: 1,
    });
    const merged = (document as Json).conversation as Json;
    expect(host).toEqual(original); // input untouched
    for (let s = 1; s <= 4; s++) {
      const newS = s <= 1 ? s : s + 2;
      const before = original.conversation[`session_${s}`] as Json[];
      const after = merged[`session_${newS}`] as Json[];
      expect(after).toHaveLength(before.length);
      before.forEach((turn, t) => {
        const expected = JSON.stringify({
          ...turn,
          dia_id: String(turn.dia_id).replace(/^D\d+/, `D${newS}`),
        });
        expect(JSON.stringify(after[t])).toBe(expected);
      });
      expect(merged[`session_${newS}_date_time`]).toBe(original.conversation[`session_${s}_date_time`]);
    }
    const obs = (document as Json).observation as Json;
    expect(Object.keys(obs)).toEqual([
      'session_1_observation',
      'session_4_observation',
      'session_5_observation',
      'session_6_observation',
    ]);
    expect((obs.session_4_observation as Json).Felix).toEqual([
      ['Felix likes the bakery (session 2).', ['D4:2', 'D4:4']],
    ]);
    expect((obs.session_5_observation as Json).Felix).toEqual([
      ['Felix likes the bakery (session 3).', 'D5:2, D5:4'],
    ]);
    expect(Object.keys((document as Json).session_summary as Json)).toContain('session_6_summary');
    expect(((document as Json).event_summary as Json).events_session_6).toEqual(
      original.event_summary && (original.event_summary as Json).events_session_4,
    );
  });

  it('remaps QA evidence, splits recoverable multi-id strings and reports malformed ids', async () => {
    const host = makeLocomoFixture();
    const { document, report } = interpolateIntoHost({
      host,
      format: 'locomo',
      sessions: await insertSessions(2),
      seed: 1,
      position: 1,
    });
    const all = (document as Json).qa as Json[];
    const qa = all.slice(0, (host.qa as Json[]).length);
    // QA planned for the two inserted sessions (2 and 3) comes after the host's.
    expect(all.length - qa.length).toBe(report.qaAdded);
    for (const item of all.slice(qa.length))
      for (const id of item.evidence as string[]) expect(id).toMatch(/^D[23]:/);
    expect(qa.map((item) => item.evidence)).toEqual([
      ['D1:1'],
      ['D6:2'],
      ['D4:1', 'D6:3'],
      ['D4:2', 'D5:4', 'D6:6'],
      ['D'],
      ['D:3:2', 'D5:5'],
      ['D6:99'],
    ]);
    expect(qa[4]).toEqual(host.qa[4]); // malformed-only item unchanged
    const kinds = report.warnings.map((w) => `${w.kind} ${w.path} ${w.value}`);
    expect(kinds).toEqual([
      'split qa[2].evidence[0] D2:1; D4:3',
      'split qa[3].evidence[0] D2:2 D3:4 D4:6',
      'malformed qa[4].evidence[0] D',
      'malformed qa[5].evidence[0] D:3:2',
      'dangling qa[6].evidence[0] D4:99',
    ]);
    expect(report.qaRemapped).toBe(7);
  });

  it('maps QA of the inserted sessions to their new dia_ids', async () => {
    const insert = await insertSessions(2);
    const turnId = insert.sessions[1]!.turns[2]!.id;
    const { document, report } = interpolateIntoHost({
      host: makeLocomoFixture(),
      format: 'locomo',
      sessions: { ...insert, qa: [{ question: 'Q?', answer: 'A', evidence: [turnId], category: 9 }] },
      seed: 1,
      position: 3,
    });
    expect(report.qaAdded).toBe(1);
    expect(((document as Json).qa as Json[]).at(-1)).toEqual({
      question: 'Q?',
      answer: 'A',
      evidence: ['D5:3'],
      category: 9,
    });
  });

  it('throws a clear error when the gap is too small for the sessions', async () => {
    const host = makeLocomoFixture();
    // Session 2 starts 10 minutes after session 1: no room for 3 sessions of several minutes each.
    host.conversation.session_2_date_time = formatLocomoTime(
      parseLocomoTime(host.conversation.session_1_date_time as string) + 10 * 60_000,
    );
    const insert = await insertSessions(3);
    expect(() =>
      interpolateIntoHost({ host, format: 'locomo', sessions: insert, seed: 1, position: 1 }),
    ).toThrow(InterpolationError);
    expect(() =>
      interpolateIntoHost({ host, format: 'locomo', sessions: insert, seed: 1, position: 1 }),
    ).toThrow(/too small for 3 sessions/);
  });

  it('draws the position from the seed when none is given, deterministically', async () => {
    const insert = await insertSessions(1);
    const a = interpolateIntoHost({
      host: makeLocomoFixture({ sessions: 8 }),
      format: 'locomo',
      sessions: insert,
      seed: 9,
    });
    const b = interpolateIntoHost({
      host: makeLocomoFixture({ sessions: 8 }),
      format: 'locomo',
      sessions: insert,
      seed: 9,
    });
    expect(a.report.position).toBe(b.report.position);
    expect(a.report.position).toBeGreaterThanOrEqual(1);
    expect(a.report.position).toBeLessThanOrEqual(7);
    expect(JSON.stringify(a.document)).toBe(JSON.stringify(b.document));
  });

  it('rejects a position outside the host', async () => {
    const { sessions } = await insertSessions(1);
    expect(() =>
      interpolateIntoHost({
        host: makeLocomoFixture(),
        format: 'locomo',
        sessions: { sessions },
        seed: 1,
        position: 4,
      }),
    ).toThrow(/\[1, 3\]/);
  });
});

describe('host order', () => {
  it('reports host sessions that are out of order elsewhere, without touching them', async () => {
    const host = makeLocomoFixture({ sessions: 5 });
    host.conversation.session_5_date_time = host.conversation.session_3_date_time;
    const { report, document } = interpolateIntoHost({
      host,
      format: 'locomo',
      sessions: await insertSessions(1),
      seed: 1,
      position: 1,
    });
    expect(report.warnings.filter((w) => w.kind === 'host_order').map((w) => w.path)).toEqual([
      'session_6_date_time',
    ]);
    expect(((document as Json).conversation as Json).session_6_date_time).toBe(
      host.conversation.session_3_date_time,
    );
  });
});
