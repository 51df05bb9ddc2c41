import { describe, expect, it } from 'vitest';
import { interpolateIntoHost, parsePlainTime } from '../../src/interpolate/index.js';
import { UserDialogue } from '../../src/schemas/dialogue.js';
import { sessionsForInsertion } from '../../src/synth/insert-sessions.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { makePlanFixture } from '../support/plan-fixture.js';

const insertPlan = makePlanFixture({ seed: 5, rounds: 60, sessionRounds: [5, 8] });

function personaVlmHost() {
  const day = 86_400_000;
  const time = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
  const base = Date.UTC(2024, 8, 1, 9, 0);
  return {
    profile: { name: 'Mabel', age: 30 },
    sessions: [0, 1, 2].map((s) =>
      [0, 1, 2].map((r) => ({
        time: time(base + s * 5 * day + r * 120_000),
        user: r === 1 ? `look <img> session ${s}` : `hello ${s}.${r}`,
        assistant: `reply ${s}.${r}`,
      })),
    ),
    imgs: ['./imgs/a.png', './imgs/b.png', './imgs/c.png'],
  };
}

describe('interpolateIntoHost (PersonaVLM user_data.json)', () => {
  it('inserts rounds between sessions, keeps host rounds unchanged and keeps imgs in placeholder order', async () => {
    const host = personaVlmHost();
    const insert = await sessionsForInsertion(insertPlan, { seed: 1, count: 2 });
    const { document, report } = interpolateIntoHost({
      host,
      format: 'personavlm',
      sessions: insert,
      seed: 1,
      position: 1,
    });
    const doc = document as ReturnType<typeof personaVlmHost>;
    expect(doc.sessions).toHaveLength(5);
    expect(doc.sessions[0]).toEqual(host.sessions[0]);
    expect(doc.sessions[3]).toEqual(host.sessions[1]);
    expect(doc.sessions[4]).toEqual(host.sessions[2]);
    const times = doc.sessions.flat().map((round) => parsePlainTime(round.time));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    const placeholders = doc.sessions
      .flat()
      .reduce((sum, round) => sum + (round.user.match(/<img>/g)?.length ?? 0), 0);
    expect(doc.imgs).toHaveLength(placeholders);
    const newImgs = insert.sessions.flatMap((s) => s.turns.flatMap((t) => t.images)).length;
    expect(doc.imgs.slice(0, 1)).toEqual(['./imgs/a.png']);
    expect(doc.imgs.slice(1 + newImgs)).toEqual(['./imgs/b.png', './imgs/c.png']);
    expect(doc.profile).toBe(host.profile);
    expect(report.times).toHaveLength(2);
  });
});

describe('interpolateIntoHost (native UserDialogue)', () => {
  it('renumbers later sessions and their turn ids, leaving every other turn field unchanged', async () => {
    const hostPlan = makePlanFixture({ seed: 8, rounds: 60, sessionRounds: [10, 14] });
    const host = await realizeDialogue(hostPlan, { realizer: createOfflineRealizer({ seed: 2 }) });
    const insert = await sessionsForInsertion(insertPlan, { seed: 1, count: 2 });
    const { document, report } = interpolateIntoHost({
      host,
      format: 'native',
      sessions: insert,
      seed: 1,
      position: 2,
    });
    const merged = UserDialogue.parse(document);
    expect(merged.sessions).toHaveLength(host.sessions.length + 2);
    expect(report.renumbered['3']).toBe(5);
    merged.sessions.forEach((session, index) => {
      expect(session.index).toBe(index);
      for (const turn of session.turns) expect(turn.id).toBe(`${host.userId}:S${index}:T${turn.index}`);
    });
    const moved = merged.sessions[4]!;
    const original = host.sessions[2]!;
    moved.turns.forEach((turn, t) => {
      expect({ ...turn, id: '' }).toEqual({ ...original.turns[t]!, id: '' });
    });
    const times = merged.sessions.flatMap((s) => s.turns.map((t) => Date.parse(t.time)));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    expect(merged.behaviors).toEqual(host.behaviors);
  });
});
