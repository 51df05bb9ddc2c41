import { afterAll, describe, expect, it } from 'vitest';
import {
  type FakeChatRequest,
  type FakeLlmServer,
  startFakeLlmServer,
} from '../../src/dev/fake-llm/index.js';
import { SynthError } from '../../src/errors/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import type { ChatMessage } from '../../src/llm/types.js';
import { UserDialogue } from '../../src/schemas/dialogue.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { createLlmRealizer } from '../../src/synth/llm-realizer.js';
import { type RealizeStats, realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { makePlanFixture } from '../support/plan-fixture.js';
import { chunkResponder } from './stub-llm.js';

const servers: FakeLlmServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A fake OpenAI-compatible server whose "model" writes chunk turns (and answers judge calls). */
async function clientWith(mode: 'keywords' | 'omit' | 'partial', judgeSays = true) {
  const write = chunkResponder(mode);
  const server = await startFakeLlmServer({
    respond: (request: FakeChatRequest) => {
      const messages = request.messages as ChatMessage[];
      const last = messages[messages.length - 1]!.content;
      if (last.startsWith('Fact:')) return { expressed: judgeSays, reason: 'fake judge' };
      if (last.includes('WRITE THESE ROUNDS:')) return write('realizer', messages);
      return undefined;
    },
  });
  servers.push(server);
  const llm = createLlmClient(
    LlmConfig.parse({
      endpoints: {
        gen: {
          baseUrl: server.url,
          model: 'fake-model',
          maxConcurrency: 2,
          timeoutMs: 10_000,
          maxRetries: 0,
        },
      },
      roles: { realizer: 'gen', judge: 'gen' },
    }),
    { cache: false, env: {} },
  );
  return { llm, server };
}

const plan = makePlanFixture({ seed: 41, rounds: 60, sessionRounds: [14, 20] });

describe('LLM realizer against the fake OpenAI-compatible server', () => {
  it('realizes every chunk through the server and expresses every slot', async () => {
    const { llm, server } = await clientWith('keywords');
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    const dialogue = await realizeDialogue(
      plan,
      { realizer: createLlmRealizer({ llm, seed: 42 }), llm, config: { chunkRounds: 5 } },
      stats,
    );
    expect(UserDialogue.parse(dialogue)).toMatchObject({ realizer: 'fake-model', offline: false });
    // One realizer call per chunk, plus an entailment call for each chunk the reader was unsure of.
    expect(server.stats.chatRequests - stats.judgeCalls - (stats.labelCalls ?? 0)).toBe(
      plan.sessions.reduce((n, s) => n + Math.ceil(s.rounds / 5), 0),
    );
    expect(stats.regenerations).toBe(0);
    const byId = new Map(dialogue.sessions.flatMap((s) => s.turns.map((t) => [t.id, t] as const)));
    for (const slot of plan.slots) {
      const turn = byId.get(`${plan.userId}:S${slot.sessionIndex}:T${2 * slot.round}`)!;
      for (const keyword of slot.keywords) expect(turn.text).toContain(keyword);
    }
    expect(llm.usage().total.promptTokens).toBeGreaterThan(0);
  });

  it('regenerates a chunk that omits its keywords, then quarantines the user', async () => {
    const { llm, server } = await clientWith('omit');
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    const run = realizeDialogue(
      plan,
      { realizer: createLlmRealizer({ llm }), llm, config: { maxRegenerations: 2 } },
      stats,
    );
    await expect(run).rejects.toBeInstanceOf(SynthError);
    await expect(run).rejects.toMatchObject({ reason: 'slots_not_expressed' });
    expect(stats.regenerations).toBe(2);
    expect(server.stats.chatRequests).toBeGreaterThanOrEqual(3);
  });

  it('asks the judge when only some keywords are present and regenerates on a "no"', async () => {
    const twoKeywords = {
      ...plan,
      slots: plan.slots.map((slot) => ({ ...slot, keywords: [...slot.keywords, 'lighthouse'] })),
    };
    const { llm } = await clientWith('partial', false);
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    await expect(
      realizeDialogue(
        twoKeywords,
        {
          realizer: createLlmRealizer({ llm }),
          llm,
          config: { maxRegenerations: 1, judgeWhenKeywordFraction: 0.3 },
        },
        stats,
      ),
    ).rejects.toMatchObject({ reason: 'slots_not_expressed' });
    expect(stats.judgeCalls).toBeGreaterThanOrEqual(2);
    expect(stats.regenerations).toBe(1);
  });
});

describe('the fake model writes the reply length the realizer prompt asks for', () => {
  it('assistant replies of about synth.replyWords words, in whole sentences', async () => {
    const server = await startFakeLlmServer();
    servers.push(server);
    const llm = createLlmClient(
      LlmConfig.parse({
        endpoints: { gen: { baseUrl: server.url, model: 'fake-model', maxRetries: 0 } },
        roles: { realizer: 'gen', judge: 'gen' },
      }),
      { cache: false, env: {} },
    );
    const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
    for (const replyWords of [20, 60]) {
      const dialogue = await realizeDialogue(plan, {
        realizer: createLlmRealizer({ llm, replyWords }),
        llm,
        seed: 7,
      });
      const replies = dialogue.sessions.flatMap((s) => s.turns).filter((t) => t.speaker === 'assistant');
      const mean = replies.reduce((sum, t) => sum + words(t.text), 0) / replies.length;
      expect(mean).toBeGreaterThanOrEqual(replyWords);
      expect(mean).toBeLessThan(replyWords * 1.4);
      expect(replies.every((t) => /[.!?]$/.test(t.text))).toBe(true);
    }
  });
});
