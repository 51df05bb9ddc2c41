import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../llm/token-estimate.js';
import type { LlmClient } from '../../llm/types.js';
import { createOfflineEmbedder } from '../retrieval/offline-embedder.js';
import {
  chunkByTokens,
  createRagMemory,
  createRewriteMemory,
  retrieveVitaMemory,
  updateVitaMemory,
  type VitaInteraction,
} from './vita-memory.js';

const at = (i: number) => new Date(Date.UTC(2024, 0, 1, 8, i)).toISOString();
const history = (
  n: number,
  text = (i: number) => `ordered item number ${i} from the noodle shop downtown`,
): VitaInteraction[] =>
  Array.from({ length: n }, (_, i) => ({ time: at(i), kind: 'behavior', text: text(i) }));

describe('VitaBench rewrite memory', () => {
  it('stays within the token budget offline, keeping the newest interactions', async () => {
    const memory = createRewriteMemory({ config: { rewriteMaxTokens: 100 } });
    await updateVitaMemory(memory, history(200));
    const summary = await retrieveVitaMemory(memory, 'anything');
    expect(estimateTokens(summary)).toBeLessThanOrEqual(100);
    expect(summary).toContain('item number 199');
    expect(summary).not.toContain('item number 0 ');
    expect(memory.offline).toBe(true);
  });

  it('asks the model to rewrite when the role has an endpoint, and enforces the budget on its answer', async () => {
    const calls: string[] = [];
    const llm = {
      isOffline: () => false,
      chat: async (_role: string, request: { messages: Array<{ content: string }> }) => {
        calls.push(request.messages[1]!.content);
        return {
          text: 'Food: likes noodles\n'.repeat(500),
          usage: { promptTokens: 1, completionTokens: 1 },
          cached: false,
          offline: false,
          model: 'fake',
        };
      },
    } as unknown as LlmClient;
    const memory = createRewriteMemory({ llm, config: { rewriteMaxTokens: 50 } });
    await memory.update(history(3));
    await memory.update(history(1));
    expect(calls).toHaveLength(2);
    expect(calls[1]).toContain('Food: likes noodles');
    expect(estimateTokens(memory.summary())).toBeLessThanOrEqual(50);
    expect(memory.offline).toBe(false);
  });
});

describe('VitaBench RAG memory', () => {
  it('chunks to at most the token size', () => {
    const chunks = chunkByTokens(
      history(100).map((h) => h.text),
      64,
    );
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(estimateTokens(chunk)).toBeLessThanOrEqual(64);
  });

  it('returns at most top-k chunks above the similarity threshold', async () => {
    const memory = createRagMemory({
      embedder: createOfflineEmbedder(384),
      config: { ragChunkTokens: 16, ragTopK: 2 },
    });
    await memory.update([
      ...history(20),
      { time: at(30), kind: 'dialogue', text: 'I am vegetarian now, no meat please' },
    ]);
    const context = await memory.retrieve('vegetarian meat');
    expect(context).toContain('vegetarian');
    expect(context.split('\n\n').length).toBeLessThanOrEqual(2);
    expect(await memory.retrieve('zzzz qqqq')).toBe('');
  });
});
