import { afterAll, describe, expect, it } from 'vitest';
import { replayMemory } from '../../src/memory/replay.js';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { fakeClient } from '../llm/helpers.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';
import { type FakeChatRequest, startFakeLlmServer } from '../support/fake-llm.js';

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

/**
 * A session answer a fault spoils is asked again as the same session prompt, never per trace
 * (whose targets would differ): the run ends with the targets of an unspoiled one, or the user is
 * quarantined with a retryable code and the rerun asks the session prompt again.
 */
describe('memory teacher per session under faults', async () => {
  const schemaName = (request: FakeChatRequest) =>
    (request.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  const kinds: string[] = [];
  const answered = new Set<string>();
  let spoil: 'first' | 'always' = 'first';
  const server = await startFakeLlmServer({
    respond: (request) => {
      const kind = schemaName(request) ?? '?';
      kinds.push(kind);
      if (kind !== 'memory_session') return undefined;
      const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
      if (spoil === 'first' && answered.has(prompt)) return undefined;
      answered.add(prompt);
      // A schema-shaped answer with none of the parts asked for (the fake's `schema-invalid` fault).
      return { unexpected: 'this answer ignores the schema' };
    },
  });
  const healthy = await startFakeLlmServer();
  afterAll(async () => {
    await server.close();
    await healthy.close();
  });
  const user = fixtureUsers(1, 11)[0];
  if (user === undefined) throw new Error('no fixture user');
  const plan = buildUserPlan({ ...user, images: fixtureImages() }, { config: {}, seed: 7 });
  const synth = await realizeDialogue(plan, { realizer: createOfflineRealizer({ seed: 7 }), seed: 7 });
  const replay = (url: string) =>
    replayMemory(plan, synth, {
      config: { teacherSpan: 'session' },
      llm: fakeClient(url, { maxRetries: 0 }),
      seed: 7,
    });

  it('a spoiled session answer is re-asked as a session call: the targets of a healthy run', async () => {
    spoil = 'first';
    kinds.length = 0;
    const spoiled = await replay(server.url);
    expect(kinds.filter((kind) => kind === 'memory_session').length).toBe(2 * synth.sessions.length);
    expect(kinds.every((kind) => kind === 'memory_session')).toBe(true);
    expect(spoiled.traces).toEqual((await replay(healthy.url)).traces);
  });

  it('a session call that never gets an answer quarantines the user as retryable, with no per-trace call', async () => {
    spoil = 'always';
    kinds.length = 0;
    await expect(replay(server.url)).rejects.toMatchObject({ code: 'LLM_SCHEMA_MISMATCH' });
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.every((kind) => kind === 'memory_session')).toBe(true);
  });
});
