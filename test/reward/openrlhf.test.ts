import { describe, expect, it } from 'vitest';
import { createRewardApp } from '../../src/reward/index.js';
import { post, read, THINK_ANSWER } from './support/http.js';
import { createStubLlm, itemIds } from './support/stub-llm.js';

const PROMPT = '<|im_start|>user\nWhich hobby? (a) Sketching (b) Painting<|im_end|>\n<|im_start|>assistant\n';
const query = (answer: string) => `${PROMPT}${THINK_ANSWER(answer)}<|im_end|>`;

describe('/get_reward (OpenRLHF)', () => {
  it('answers 400 naming --data.label_key when labels are empty (OpenRLHF default), never 503', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const response = await post(app, '/get_reward', {
      query: [query('(b)')],
      prompts: [PROMPT],
      labels: [''],
    });
    expect(response.status).toBe(400);
    const body = await read(response);
    expect(body.error.code).toBe('missing_label');
    expect(body.error.message).toContain('--data.label_key solution');
    // A reward that reads no label (format) scores the same request.
    const format = createRewardApp({ llm: createStubLlm(), config: { openrlhf: { reward: 'format' } } });
    expect(
      (await post(format, '/get_reward', { query: [query('(b)')], prompts: [PROMPT], labels: [''] })).status,
    ).toBe(200);
  });

  it('takes the token in the path or the query (OpenRLHF sends no headers)', async () => {
    const app = createRewardApp({
      llm: createStubLlm(),
      token: 's3cret/+x',
      config: { openrlhf: { reward: 'format' } },
    });
    const body = { query: [query('(b)')], prompts: [PROMPT], labels: ['(b)'] };
    expect((await post(app, '/get_reward', body)).status).toBe(401);
    expect((await post(app, `/t/${encodeURIComponent('s3cret/+x')}/get_reward`, body)).status).toBe(200);
    expect((await post(app, `/get_reward?token=${encodeURIComponent('s3cret/+x')}`, body)).status).toBe(200);
    const wrong = await post(app, '/t/guess/get_reward', body);
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(await read(wrong))).not.toContain('guess');
    const missing = await post(app, `/t/${encodeURIComponent('s3cret/+x')}/nowhere`, body);
    expect(JSON.stringify(await read(missing))).not.toContain('s3cret');
  });

  it('returns scores in [0, 1] (the reward over its range) beside the raw rewards', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const body = await read(
      await post(app, '/get_reward', {
        query: [query('(b)'), query('(a)')],
        prompts: [PROMPT, PROMPT],
        labels: [
          JSON.stringify({ solution: '(b)', choices: ['Sketching', 'Painting'] }),
          JSON.stringify({ solution: '(b)', choices: ['Sketching', 'Painting'] }),
        ],
      }),
    );
    // personavlm = accuracy + consistency (stub judge: 1) + 0.5·format, range 0–2.5
    expect(body.rewards).toEqual([2.5, 1.5]);
    expect(body.scores).toEqual([1, 0.6]);
  });

  it('with group_size, a failed completion waits for its siblings and gets their mean (advantage 0)', async () => {
    // The judge fails the first call it sees for the completion "(c)" (and its single retry).
    const llm = createStubLlm({
      respond: ({ user }) => {
        // One section per packed item: "### Item <id>" then its text.
        const sections = user.split(/### Item \d+/).slice(1);
        if (sections.some((text) => text.includes('Knitting'))) throw new Error('judge HTTP 500');
        return {
          results: itemIds(user).map((id, n) => ({
            id,
            score: sections[n]?.includes('Watercolour') ? 0.2 : 0.8,
          })),
        };
      },
    });
    const app = createRewardApp({ llm, config: { openrlhf: { reward: 'consistency' } } });
    const one = async (answer: string) =>
      read(
        await post(app, '/get_reward?group_size=3', {
          query: [query(answer)],
          prompts: [PROMPT],
          labels: ['(b)'],
        }),
      );
    // The failed one arrives first; the other two complete the group.
    const [failed, a, b] = await Promise.all([one('Knitting'), one('Watercolour'), one('Oils')]);
    expect(a.rewards).toEqual([0.2]);
    expect(b.rewards).toEqual([0.8]);
    expect(failed.rewards).toEqual([0.5]);
    expect(failed.extra_logs.pf_failed).toEqual([1]);
    // Without group_size a lone failed completion has nothing to be neutral against: 503 (retried).
    const alone = await post(app, '/get_reward', {
      query: [query('Knitting')],
      prompts: [PROMPT],
      labels: ['(b)'],
    });
    expect(alone.status).toBe(503);
  });
});
