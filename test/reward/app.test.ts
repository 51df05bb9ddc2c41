import { describe, expect, it } from 'vitest';
import { createRewardApp } from '../../src/reward/index.js';
import { post, read, THINK_ANSWER } from './support/http.js';
import { createStubLlm, itemIds } from './support/stub-llm.js';

describe('POST /v1/rewards', () => {
  it('scores format with components, no errors and rule usage', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const response = await post(app, '/v1/rewards', {
      reward: 'format',
      items: [{ completion: THINK_ANSWER('(b)') }, { completion: 'nothing' }],
    });
    expect(response.status).toBe(200);
    const body = await read(response);
    expect(body.rewards).toEqual([1, 0]);
    expect(body.components).toEqual({ format: [1, 0] });
    expect(body.errors).toEqual([]);
    expect(body.usage).toMatchObject({
      items: 2,
      judge_calls: 0,
      scorers: { format: 'rule' },
      timed_out: false,
    });
  });

  it('scores multiple choice and binary accuracy by option match without calling the judge', async () => {
    const llm = createStubLlm();
    const app = createRewardApp({ llm });
    const choices = { '(a)': 'Sketching.', '(b)': 'Painting.', '(c)': 'Comic strips.', '(d)': 'Latte art.' };
    const response = await post(app, '/v1/rewards', {
      reward: 'accuracy',
      items: [
        { completion: THINK_ANSWER('B.'), solution: '(b)', choices },
        { completion: THINK_ANSWER('Painting'), solution: '(b)', choices },
        { completion: THINK_ANSWER('(a)'), solution: '(b)', choices },
        { completion: THINK_ANSWER('yes'), solution: 'Yes', answer_type: 'binary' },
        { completion: '<think>x</think><retrieve>{"keywords":"art"}</retrieve>', solution: 'b', choices },
      ],
    });
    const body = await read(response);
    expect(body.rewards).toEqual([1, 1, 0, 1, 0]);
    expect(llm.calls).toHaveLength(0);
  });

  it('judges open-ended accuracy, consistency and persona fit with the LLM judge in batches', async () => {
    const llm = createStubLlm({
      respond: ({ system, user }) =>
        system.includes('"label"')
          ? {
              results: itemIds(user).map((id) => ({
                id,
                label: user.includes('RESPONSE: Paris') ? 'CORRECT' : 'WRONG',
              })),
            }
          : { results: itemIds(user).map((id) => ({ id, score: 0.8 })) },
    });
    const app = createRewardApp({ llm });
    const response = await post(app, '/v1/rewards', {
      reward: ['accuracy', 'consistency', 'persona_consistency'],
      weights: [1, 1, 2],
      items: [
        {
          completion: THINK_ANSWER('Paris'),
          solution: 'Paris',
          question: 'Capital?',
          profile: 'likes France',
        },
      ],
    });
    const body = await read(response);
    expect(body.components).toEqual({ accuracy: [1], consistency: [0.8], persona_consistency: [0.8] });
    expect(body.rewards).toEqual([3.4]);
    expect(body.usage).toMatchObject({ judge_calls: 3, judge_model: 'stub-judge', offline: false });
    expect(body.usage.scorers.consistency).toBe('llm-judge');
  });

  it('returns personavlm = accuracy + consistency + 0.5·format with its components', async () => {
    const llm = createStubLlm({
      respond: ({ user }) => ({ results: itemIds(user).map((id) => ({ id, score: 0.5 })) }),
    });
    const app = createRewardApp({ llm });
    const response = await post(app, '/v1/rewards', {
      reward: 'personavlm',
      items: [{ completion: THINK_ANSWER('(c)'), solution: '(c)', choices: ['a', 'b', 'c', 'd'] }],
    });
    const body = await read(response);
    expect(body.components).toEqual({ personavlm: [2], accuracy: [1], consistency: [0.5], format: [1] });
    expect(body.rewards).toEqual([2]);
  });

  it('scores tree_ops as the blend of judge and structure, and structure alone offline (labelled)', async () => {
    const item = {
      completion: 'ADD(4_Identity.Name, "Kanoa Manu")',
      gt_ops: 'ADD(4_Identity.Name, "Kanoa Manu")',
    };
    const judged = createRewardApp({
      llm: createStubLlm({
        respond: ({ user }) => ({ results: itemIds(user).map((id) => ({ id, score: 0.5 })) }),
      }),
    });
    const body = await read(await post(judged, '/v1/rewards', { reward: 'tree_ops', items: [item] }));
    expect(body.rewards).toEqual([0.65]); // 0.7·0.5 + 0.3·1
    expect(body.usage.scorers.tree_ops).toBe('llm-judge+structural');
    const offline = createRewardApp({
      llm: createStubLlm({ offline: true }),
      config: { judge: { allowOffline: true } },
    });
    const offlineBody = await read(await post(offline, '/v1/rewards', { reward: 'tree_ops', items: [item] }));
    expect(offlineBody.rewards).toEqual([1]);
    expect(offlineBody.usage.scorers.tree_ops).toBe('offline-structural');
    expect(offlineBody.usage.offline).toBe(true);
  });

  it('answers nulls with not_applicable / invalid_item codes, never 0', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const body = await read(
      await post(app, '/v1/rewards', {
        reward: 'accuracy',
        items: [
          { completion: THINK_ANSWER('b') },
          { completion: THINK_ANSWER('b'), solution: 'b', choices: [1, 2] },
          { completion: THINK_ANSWER('b'), solution: 'b', answer_type: 'essay' },
        ],
      }),
    );
    expect(body.rewards).toEqual([null, null, null]);
    expect(body.errors.map((error: { code: string }) => error.code)).toEqual([
      'not_applicable',
      'invalid_item',
      'invalid_item',
    ]);
  });

  it('skips not_applicable components of a combined reward (like nansum)', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const body = await read(
      await post(app, '/v1/rewards', {
        reward: ['format', 'tree_ops'],
        items: [{ completion: THINK_ANSWER('x') }],
      }),
    );
    expect(body.rewards).toEqual([1]);
    expect(body.components.tree_ops).toEqual([null]);
  });

  it('labels offline heuristic judges in usage', async () => {
    const app = createRewardApp({
      llm: createStubLlm({ offline: true }),
      config: { judge: { allowOffline: true } },
    });
    const body = await read(
      await post(app, '/v1/rewards', {
        reward: 'consistency',
        items: [{ completion: THINK_ANSWER('the user said so') }],
      }),
    );
    expect(body.rewards).toEqual([1]);
    expect(body.usage).toMatchObject({
      offline: true,
      judge_model: 'offline',
      scorers: { consistency: 'offline-heuristic' },
    });
  });

  it('says judge_error when no judge endpoint is configured and offline is not allowed', async () => {
    const app = createRewardApp({ llm: createStubLlm({ offline: true }) });
    const body = await read(
      await post(app, '/v1/rewards', { reward: 'consistency', items: [{ completion: THINK_ANSWER('x') }] }),
    );
    expect(body.rewards).toEqual([null]);
    expect(body.errors[0]).toMatchObject({ code: 'judge_error', reward: 'consistency' });
    expect(body.errors[0].message).toContain('llm.roles.judge');
  });
});

describe('bad input', () => {
  const app = createRewardApp({
    llm: createStubLlm(),
    config: { limits: { bodyLimitBytes: 2048, maxItems: 3 } },
  });

  it.each([
    [{ reward: 'format', items: [] }, 'items', 'empty batch'],
    [{ reward: 'format' }, 'items', ''],
    [{ reward: 'format', items: [{ completion: 3 }] }, 'items.0.completion', ''],
    [{ reward: 7, items: [{ completion: 'x' }] }, 'reward', ''],
    [{ reward: 'format', items: [{ completion: 'x' }], extra: 1 }, '<root>', 'extra'],
    [{ reward: 'format', items: [{ completion: 'x', messages: 'hi' }] }, 'items.0.messages', ''],
  ])('answers 400 with the field path for %j', async (body, path, text) => {
    const response = await post(app, '/v1/rewards', body);
    expect(response.status).toBe(400);
    const error = (await read(response)).error;
    expect(error.code).toBe('invalid_request');
    expect(error.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(error.message).toContain(text);
  });

  it('answers 400 listing known rewards for an unknown name', async () => {
    const response = await post(app, '/v1/rewards', {
      reward: ['format', 'vibes'],
      items: [{ completion: 'x' }],
    });
    expect(response.status).toBe(400);
    const { error } = await read(response);
    expect(error.message).toContain('unknown reward "vibes"');
    expect(error.message).toContain(
      'format, accuracy, consistency, tree_ops, persona_consistency, personavlm',
    );
  });

  it('answers 400 for mismatched weights and for invalid JSON', async () => {
    const weights = await post(app, '/v1/rewards', {
      reward: ['format'],
      weights: [1, 2],
      items: [{ completion: 'x' }],
    });
    expect(weights.status).toBe(400);
    expect((await read(weights)).error.message).toContain('weights');
    const broken = await post(app, '/v1/rewards', '{"reward": ');
    expect(broken.status).toBe(400);
    expect((await read(broken)).error.code).toBe('invalid_json');
  });

  it('answers 413 when the body exceeds the limit or the batch exceeds maxItems', async () => {
    const big = await post(app, '/v1/rewards', {
      reward: 'format',
      items: [{ completion: 'x'.repeat(4096) }],
    });
    expect(big.status).toBe(413);
    expect((await read(big)).error.code).toBe('body_too_large');
    const many = await post(app, '/v1/rewards', {
      reward: 'format',
      items: [1, 2, 3, 4].map(() => ({ completion: 'x' })),
    });
    expect(many.status).toBe(413);
  });

  it('answers 404 with the route for unknown paths', async () => {
    const response = await app.request('/v2/nothing');
    expect(response.status).toBe(404);
    expect((await read(response)).error.message).toContain('/v2/nothing');
  });
});

describe('auth', () => {
  const app = createRewardApp({ llm: createStubLlm(), token: 's3cret' });

  it('requires the bearer token everywhere but /health', async () => {
    expect((await app.request('/health')).status).toBe(200);
    expect((await app.request('/v1/rewards/functions')).status).toBe(401);
    expect(
      (await app.request('/v1/rewards/functions', { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    expect(
      (await app.request('/v1/rewards/functions', { headers: { authorization: 'Bearer s3cret' } })).status,
    ).toBe(200);
    const scored = await post(
      app,
      '/v1/rewards',
      { reward: 'format', items: [{ completion: 'x' }] },
      { authorization: 'Bearer s3cret' },
    );
    expect(scored.status).toBe(200);
  });
});
