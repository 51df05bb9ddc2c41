import { afterAll, describe, expect, it } from 'vitest';
import { replayMemory } from '../../src/memory/replay.js';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { fakeClient } from '../llm/helpers.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';
import { startFakeLlmServer } from '../support/fake-llm.js';

/**
 * The session teacher asks differently, not something else: against the fake model's oracle
 * answers, one call per session gives exactly the teacher targets one call per trace gives.
 */
describe('memory teacher per session', async () => {
  const server = await startFakeLlmServer();
  afterAll(() => server.close());
  const users = fixtureUsers(2, 11);
  const replayBoth = async (user: (typeof users)[number]) => {
    const plan = buildUserPlan({ ...user, images: fixtureImages() }, { config: {}, seed: 7 });
    const synth = await realizeDialogue(plan, { realizer: createOfflineRealizer({ seed: 7 }), seed: 7 });
    const run = async (teacherSpan: 'session' | 'trace', teacherSpanRounds = 30) => {
      const before = server.stats.chatRequests;
      const llm = fakeClient(server.url, { maxRetries: 0 });
      const config = { teacherSpan, teacherSpanRounds };
      const memory = await replayMemory(plan, synth, { config, llm, seed: 7 });
      return { memory, calls: server.stats.chatRequests - before };
    };
    const trace = await run('trace');
    const session = await run('session');
    // Sessions longer than 4 user turns asked in parts.
    const parts = await run('session', 4);
    return { synth, trace, session, parts };
  };
  // One user at a time: calls are counted on the server.
  const replays: Array<Awaited<ReturnType<typeof replayBoth>>> = [];
  for (const user of users) replays.push(await replayBoth(user));

  it('gives the same gold and teacher targets on every trace', () => {
    for (const { trace, session, parts } of replays) {
      expect(session.memory.traces.length).toBe(trace.memory.traces.length);
      expect(session.memory.traces).toEqual(trace.memory.traces);
      expect(session.memory.stats).toEqual(trace.memory.stats);
      expect(parts.memory.traces).toEqual(trace.memory.traces);
    }
  });

  it('asks every teacher task and the targets are not all of one kind', () => {
    for (const { session } of replays) {
      const traces = session.memory.traces;
      expect(traces.every((trace) => trace.teacher !== null && trace.teacher.model === 'fake-model')).toBe(
        true,
      );
      expect(new Set(traces.map((trace) => trace.task)).size).toBe(6);
      const decisions = traces
        .filter((trace) => trace.task === 'semantic_write')
        .map((trace) => (trace.teacher?.value as { decision?: boolean } | undefined)?.decision);
      expect(new Set(decisions)).toEqual(new Set([true, false]));
      expect(session.memory.stats.teacherAgreement).toBeGreaterThan(0);
      expect(session.memory.stats.teacherAgreement).toBeLessThan(1);
    }
  });

  it('makes one call per session instead of one per trace', () => {
    for (const { synth, trace, session, parts } of replays) {
      expect(session.calls).toBe(synth.sessions.length);
      const userTurns = (turns: Array<{ speaker: string }>) =>
        turns.filter((t) => t.speaker === 'user').length;
      expect(synth.sessions.some((s) => userTurns(s.turns) > 4)).toBe(true);
      expect(parts.calls).toBeGreaterThan(session.calls);
      expect(parts.calls).toBeLessThan(trace.calls / 2);
      expect(trace.calls).toBe(trace.memory.traces.length);
    }
  });
});
