// Prompt size of the LLM realizer vs a naive full-history realizer, side by side in one run,
// both through the real LLM client against the fake OpenAI-compatible server (loopback).
// Prints one JSON object: mean prompt tokens per call around turn 40 and after turn 400.
// Target (issue 4): ours(after 400) ≤ 1.5 × ours(around 40).
import { type FakeChatRequest, startFakeLlmServer } from '../src/dev/fake-llm/index.js';
import { createLlmClient, type LlmClient } from '../src/llm/index.js';
import { estimateMessagesTokens } from '../src/llm/token-estimate.js';
import type { ChatMessage } from '../src/llm/types.js';
import { buildUserPlan } from '../src/plan/index.js';
import { LlmConfig } from '../src/schemas/llm-config.js';
import {
  buildChunkPrompt,
  ChunkOutput,
  createLlmRealizer,
  type Realizer,
  realizeDialogue,
} from '../src/synth/index.js';
import { fixtureImages, fixtureUsers } from '../test/plan/fixtures.js';
import { chunkResponder } from '../test/synth/stub-llm.js';

const ROUNDS = Number(process.env.ROUNDS ?? 500);
const CHUNK = Number(process.env.CHUNK ?? 4);
const config = {
  contexts: { long: { rounds: [ROUNDS, ROUNDS] as [number, number] } },
  trainContexts: ['long'],
  testContexts: ['long'],
};
const [user] = fixtureUsers(1, 11);
const plan = buildUserPlan({ ...user!, images: fixtureImages() }, { config, seed: 42 });

// Turns of realistic length (~35 words per user message) so the naive history grows as it would.
const FILLER =
  'honestly this week has been a lot, between the late shifts and trying to keep up with the gym, and I keep wondering whether I should plan the weekend differently this time';
const write = chunkResponder('keywords', FILLER);

/** Wraps a realizer, recording the dialogue turn index each call's chunk starts at. */
function recordTurns(inner: Realizer, starts: number[]): Realizer {
  let turns = 0;
  return {
    name: inner.name,
    offline: inner.offline,
    async realizeChunk(request) {
      starts.push(turns);
      const out = await inner.realizeChunk(request);
      if (out.length === request.rounds.length) turns += 2 * out.length;
      return out;
    },
  };
}

/** The baseline: the same prompt plus every earlier turn of every session. */
function createNaiveRealizer(llm: LlmClient): Realizer {
  const history: string[] = [];
  return {
    name: 'naive',
    offline: false,
    async realizeChunk(request) {
      const messages = buildChunkPrompt(request);
      messages[1] = {
        role: 'user',
        content: `FULL HISTORY:\n${history.join('\n')}\n${messages[1]!.content}`,
      };
      const output = await llm.structured('realizer', {
        schema: ChunkOutput,
        schemaName: 'dialogue_chunk',
        messages,
        stage: 'synth',
      });
      for (const turn of output.turns) history.push(`user: ${turn.user}`, `assistant: ${turn.assistant}`);
      return output.turns;
    },
  };
}

async function measure(kind: 'compact' | 'naive') {
  const tokens: number[] = [];
  const server = await startFakeLlmServer({
    respond: (request: FakeChatRequest) => {
      tokens[request.index] = estimateMessagesTokens(request.messages);
      return write('realizer', request.messages as ChatMessage[]);
    },
  });
  try {
    const llm = createLlmClient(
      LlmConfig.parse({
        endpoints: { gen: { baseUrl: server.url, model: 'fake-model', maxRetries: 0 } },
        roles: { realizer: 'gen', judge: 'gen' },
      }),
      { cache: false, env: {} },
    );
    const starts: number[] = [];
    const realizer = recordTurns(
      kind === 'compact' ? createLlmRealizer({ llm }) : createNaiveRealizer(llm),
      starts,
    );
    const started = performance.now();
    await realizeDialogue(plan, {
      realizer,
      llm,
      config: { chunkRounds: CHUNK, behaviors: { enabled: false } },
    });
    const mean = (pick: (turn: number) => boolean) => {
      const chosen = tokens.filter((_, i) => pick(starts[i]!));
      return chosen.length === 0 ? null : Math.round(chosen.reduce((a, b) => a + b, 0) / chosen.length);
    };
    const around40 = mean((t) => t >= 30 && t <= 50);
    const after400 = mean((t) => t >= 400);
    return {
      calls: server.stats.chatRequests,
      serverPromptTokens: server.stats.promptTokens,
      around40,
      after400,
      ratio: around40 && after400 ? Number((after400 / around40).toFixed(3)) : null,
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    };
  } finally {
    await server.close();
  }
}

const ours = await measure('compact');
const naive = await measure('naive');
console.log(
  JSON.stringify({
    bench: 'synth-tokens',
    backend: 'createLlmClient → startFakeLlmServer (127.0.0.1)',
    rounds: ROUNDS,
    turns: 2 * ROUNDS,
    chunkRounds: CHUNK,
    meanPromptTokensPerCall: { ours, naive },
    oursWithinTarget: ours.ratio !== null && ours.ratio <= 1.5,
    target: { oursRatioAfter400ToAround40: 1.5 },
  }),
);
