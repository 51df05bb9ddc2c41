import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStubLlm, itemIds } from '../../test/reward/support/stub-llm.js';
import { LlmCallError, LlmSchemaError } from '../errors/index.js';
import { createJudge } from './judge.js';
import { createJudgeCache, loadJudgeCache } from './judge-cache.js';

const input = (n: number) => ({ question: `q${n}`, reference: 'Paris', answer: `answer ${n}` });
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('createJudge', () => {
  it('packs the items of one tick into calls of batchSize and maps results by id', async () => {
    const llm = createStubLlm({
      respond: ({ user }) => ({
        results: itemIds(user).map((id) => ({ id, label: id % 2 === 0 ? 'CORRECT' : 'WRONG' })),
      }),
    });
    const judge = createJudge({ llm, batchSize: 4 });
    const outcomes = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => judge.evaluate('accuracy', input(n))),
    );
    expect(llm.calls).toHaveLength(3);
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.value : null))).toEqual([
      1, 0, 1, 0, 1, 0, 1, 0, 1, 0,
    ]);
    expect(judge.stats()).toMatchObject({ calls: 3, items: 10 });
  });

  it('answers repeated content from the cache and shares in-flight calls', async () => {
    const llm = createStubLlm();
    const judge = createJudge({ llm, cache: createJudgeCache() });
    const [first, twin] = await Promise.all([
      judge.evaluate('consistency', input(1)),
      judge.evaluate('consistency', input(1)),
    ]);
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]?.user.match(/### Item/g)).toHaveLength(1);
    expect(first).toEqual(twin);
    const again = await judge.evaluate('consistency', input(1));
    expect(again).toMatchObject({ ok: true, value: 1, cached: true });
    expect(llm.calls).toHaveLength(1);
    expect(judge.stats().cacheHits).toBe(1);
  });

  it('clips judge numbers to the kind range', async () => {
    const llm = createStubLlm({
      respond: ({ user }) => ({ results: itemIds(user).map((id) => ({ id, score: 3 })) }),
    });
    const judge = createJudge({ llm });
    expect(await judge.evaluate('tree_ops', { gt_ops: 'NO_OP()', pred_ops: 'NO_OP()' })).toMatchObject({
      value: 1,
    });
  });

  it('turns a failed call into judge_error and a schema failure into parse_error, never a score', async () => {
    const down = createJudge({
      llm: createStubLlm({
        respond: () => {
          throw new LlmCallError('judge', 'HTTP 500', { status: 500 });
        },
      }),
    });
    expect(await down.evaluate('accuracy', input(1))).toMatchObject({ ok: false, code: 'judge_error' });
    expect(down.stats().failedCalls).toBe(1);
    const garbled = createJudge({
      llm: createStubLlm({
        respond: () => {
          throw new LlmSchemaError('judge', 3, 'results: expected array');
        },
      }),
    });
    expect(await garbled.evaluate('accuracy', input(1))).toMatchObject({ ok: false, code: 'parse_error' });
  });

  it('refuses a label that is not a verdict rather than guessing', async () => {
    const llm = createStubLlm({ respond: () => ({ results: [{ id: 0, label: 'maybe' }] }) });
    expect(await createJudge({ llm }).evaluate('accuracy', input(1))).toMatchObject({
      ok: false,
      code: 'parse_error',
    });
  });

  it('asks a skipped item again alone, and marks it parse_error only when skipped again', async () => {
    const llm = createStubLlm({ respond: () => ({ results: [{ id: 0, label: 'CORRECT' }] }) });
    const judge = createJudge({ llm });
    const [kept, retried] = await Promise.all([
      judge.evaluate('accuracy', input(1)),
      judge.evaluate('accuracy', input(2)),
    ]);
    expect(kept).toMatchObject({ ok: true, value: 1 });
    expect(retried).toMatchObject({ ok: true, value: 1 });
    expect(judge.stats()).toMatchObject({ calls: 2, singleRetries: 1 });
    const silent = createJudge({ llm: createStubLlm({ respond: () => ({ results: [] }) }) });
    const both = await Promise.all([
      silent.evaluate('accuracy', input(1)),
      silent.evaluate('accuracy', input(2)),
    ]);
    expect(both).toMatchObject([
      { ok: false, code: 'parse_error' },
      { ok: false, code: 'parse_error' },
    ]);
    expect(silent.stats()).toMatchObject({ calls: 3, singleRetries: 2 });
  });

  it('retries the items of a failed packed call one by one before failing any', async () => {
    let call = 0;
    const llm = createStubLlm({
      respond: ({ user }) => {
        call++;
        if (call === 1) throw new Error('HTTP 500 from the judge');
        return { results: itemIds(user).map((id) => ({ id, label: 'CORRECT' })) };
      },
    });
    const judge = createJudge({ llm });
    const outcomes = await Promise.all([1, 2, 3].map((n) => judge.evaluate('accuracy', input(n))));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(judge.stats()).toMatchObject({ calls: 4, failedCalls: 1, singleRetries: 3 });
  });

  it('refuses to judge without an endpoint unless offline heuristics are allowed, and labels them', async () => {
    const llm = createStubLlm({ offline: true });
    const strict = createJudge({ llm });
    expect(strict.unavailable).toBe(true);
    expect(await strict.evaluate('accuracy', input(1))).toMatchObject({ ok: false, code: 'judge_error' });
    const offline = createJudge({ llm, allowOffline: true });
    expect(offline.offline).toBe(true);
    expect(
      await offline.evaluate('accuracy', { question: 'q', reference: 'Paris', answer: 'paris' }),
    ).toMatchObject({
      ok: true,
      value: 1,
      source: 'offline-heuristic',
    });
    expect(llm.calls).toHaveLength(0);
  });

  it('replays verdicts from the cache file after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pf-judge-'));
    dirs.push(dir);
    const file = join(dir, 'judge-cache.jsonl');
    const first = createStubLlm();
    const cache = await loadJudgeCache({ file });
    await createJudge({ llm: first, cache }).evaluate('persona', {
      profile: 'p',
      question: 'q',
      answer: 'a',
    });
    await cache.flush();
    const second = createStubLlm({ respond: () => ({ results: [] }) });
    const replayed = createJudge({ llm: second, cache: await loadJudgeCache({ file }) });
    expect(await replayed.evaluate('persona', { profile: 'p', question: 'q', answer: 'a' })).toMatchObject({
      ok: true,
      value: 1,
      cached: true,
    });
    expect(second.calls).toHaveLength(0);
  });
});
