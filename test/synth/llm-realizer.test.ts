import { describe, expect, it } from 'vitest';
import { SynthError } from '../../src/errors/index.js';
import { UserDialogue } from '../../src/schemas/dialogue.js';
import { buildChunkPrompt, createLlmRealizer } from '../../src/synth/llm-realizer.js';
import { type RealizeStats, realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { makePlanFixture } from '../support/plan-fixture.js';
import { chunkResponder, createStubLlm } from './stub-llm.js';

const plan = makePlanFixture({ seed: 31, rounds: 80, sessionRounds: [16, 24] });

describe('LLM realizer', () => {
  it('realizes a plan through llm.structured("realizer") and labels the dialogue with the model', async () => {
    const llm = createStubLlm(chunkResponder('keywords'), { model: 'qwen-test' });
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    const dialogue = await realizeDialogue(
      plan,
      { realizer: createLlmRealizer({ llm }), llm, config: { chunkRounds: 4 } },
      stats,
    );
    expect(UserDialogue.parse(dialogue)).toMatchObject({ realizer: 'qwen-test', offline: false });
    expect(stats.regenerations).toBe(0);
    expect(llm.calls.filter((c) => c.role === 'realizer')).toHaveLength(
      plan.sessions.reduce((n, s) => n + Math.ceil(s.rounds / 4), 0),
    );
    const byId = new Map(dialogue.sessions.flatMap((s) => s.turns.map((t) => [t.id, t] as const)));
    for (const slot of plan.slots) {
      const turn = byId.get(`${plan.userId}:S${slot.sessionIndex}:T${2 * slot.round}`)!;
      expect(turn.slots).toContain(slot.id);
      for (const keyword of slot.keywords) expect(turn.text).toContain(keyword);
      if (slot.imageId !== null) expect(turn.text.match(/<image>/g)?.length).toBe(turn.images.length);
    }
  });

  it('sends a compact state, not the history: profile, personality, preferences, summary, last turns, slots', async () => {
    const llm = createStubLlm(chunkResponder('keywords', 'UNIQUE-MARKER'));
    await realizeDialogue(plan, {
      realizer: createLlmRealizer({ llm }),
      llm,
      config: { chunkRounds: 4, recentTurns: 4 },
    });
    const prompts = llm.calls.filter((c) => c.role === 'realizer').map((c) => c.messages[1]!.content);
    const last = prompts[prompts.length - 1]!;
    expect(last).toContain('USER PROFILE:');
    expect(last).toMatch(/PERSONALITY NOW \(Big Five, 1-5\): openness \d/);
    expect(last).toContain('LAST TURNS:');
    // Only the last 4 turns (2 rounds) are carried: 2 user lines with the marker.
    expect(last.match(/UNIQUE-MARKER/g)?.length).toBe(2);
    expect(last).not.toContain('Round 0:');
    const withSlot = prompts.find((p) => p.includes('express: "'));
    expect(withSlot).toMatch(/keywords: "/);
    const sizes = llm.calls.filter((c) => c.role === 'realizer').map((c) => c.promptTokens);
    expect(Math.max(...sizes.slice(10))).toBeLessThan(3 * Math.min(...sizes.slice(10)));
  });

  it('regenerates a chunk that misses its slots, then quarantines the user with a SynthError', async () => {
    const llm = createStubLlm(chunkResponder('omit'));
    const run = realizeDialogue(plan, {
      realizer: createLlmRealizer({ llm }),
      llm,
      config: { maxRegenerations: 2 },
    });
    await expect(run).rejects.toBeInstanceOf(SynthError);
    const error = (await run.catch((e: unknown) => e)) as SynthError;
    expect(error.reason).toBe('slots_not_expressed');
    expect(error.message).toMatch(/after 3 attempts/);
    const realizerCalls = llm.calls.filter((c) => c.role === 'realizer');
    // Three tries of the first chunk with a slot; the retries name the round and what was missed.
    const retries = realizerCalls.filter((c) =>
      c.messages[1]!.content.includes('THE PREVIOUS ATTEMPT GOT THESE WRONG'),
    );
    expect(retries).toHaveLength(2);
  });

  it('asks the judge when only some keywords are present, and accepts its verdict', async () => {
    const multi = {
      ...plan,
      slots: plan.slots.map((slot) => ({ ...slot, keywords: [...slot.keywords, 'zebra crossing'] })),
    };
    const llm = createStubLlm(chunkResponder('partial'));
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    const dialogue = await realizeDialogue(
      multi,
      { realizer: createLlmRealizer({ llm }), llm, config: { judgeWhenKeywordFraction: 0.3 } },
      stats,
    );
    expect(stats.judgeCalls).toBe(multi.slots.length);
    // The photo and correction checks of the model's turns go to the judge as well.
    expect(llm.calls.filter((c) => c.role === 'judge')).toHaveLength(
      multi.slots.length + (stats.labelCalls ?? 0),
    );
    expect(dialogue.sessions.flatMap((s) => s.turns.flatMap((t) => t.slots))).toHaveLength(
      multi.slots.length,
    );
  });

  it('renders the prompt from the chunk request only', () => {
    const messages = buildChunkPrompt({
      view: { plan } as never,
      session: plan.sessions[0]!,
      chunkIndex: 0,
      rounds: [
        { round: 0, time: Date.parse(plan.sessions[0]!.start), slots: [], noise: 'impulse', images: [] },
      ],
      state: {
        profile: 'Ana, 30',
        personality: plan.enriched.bigFive,
        preferences: [],
        known: [],
        summary: ['said hi'],
        recent: [],
      },
      attempt: 0,
      missing: [],
    });
    expect(messages[1]!.content).toContain('SO FAR IN THIS SESSION: said hi');
    expect(messages[1]!.content).toContain('noise: impulse');
  });
});

describe('LLM realizer output alignment', () => {
  it('accepts rounds renumbered by the model when the count matches', async () => {
    const base = chunkResponder('keywords');
    const llm = createStubLlm((role, messages) => {
      if (role !== 'realizer') return base(role, messages);
      const answer = JSON.parse(base(role, messages)) as { turns: Array<{ round: number }> };
      return JSON.stringify({ turns: answer.turns.map((turn, i) => ({ ...turn, round: i + 1 })) });
    });
    const dialogue = await realizeDialogue(plan, { realizer: createLlmRealizer({ llm }), llm });
    expect(dialogue.sessions.flatMap((s) => s.turns)).toHaveLength(
      2 * plan.sessions.reduce((n, s) => n + s.rounds, 0),
    );
  });

  it('regenerates when the model returns too few rounds', async () => {
    let calls = 0;
    const base = chunkResponder('keywords');
    const llm = createStubLlm((role, messages) => {
      if (role !== 'realizer') return base(role, messages);
      calls++;
      const answer = JSON.parse(base(role, messages)) as { turns: unknown[] };
      return JSON.stringify({ turns: calls === 1 ? answer.turns.slice(1) : answer.turns });
    });
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    await realizeDialogue(plan, { realizer: createLlmRealizer({ llm }), llm }, stats);
    expect(stats.regenerations).toBe(1);
  });
});
