import { describe, expect, it } from 'vitest';
import { createRewardApp } from '../../src/reward/index.js';
import { post, read, THINK_ANSWER } from './support/http.js';
import { createStubLlm } from './support/stub-llm.js';

describe('other endpoints', () => {
  it('GET /health probes the judge, reuses the answer for a few seconds, and says when it is down', async () => {
    let clock = 0;
    const llm = createStubLlm();
    const app = createRewardApp({ llm, now: () => clock });
    expect(await read(await app.request('/health'))).toMatchObject({
      status: 'ok',
      judge: { model: 'stub-judge', offline: false, available: true },
    });
    await app.request('/health');
    expect(llm.chatCalls).toBe(1); // cached
    clock = 6000;
    await app.request('/health');
    expect(llm.chatCalls).toBe(2); // older than judge.healthTtlMs (5 s): probed again
    // A judge that just answered a scoring call is up: no probe queues behind the training's calls.
    const busy = createStubLlm();
    const busyApp = createRewardApp({ llm: busy });
    await post(busyApp, '/v1/rewards', { reward: 'consistency', items: [{ completion: THINK_ANSWER('x') }] });
    expect(await read(await busyApp.request('/health'))).toMatchObject({ judge: { available: true } });
    expect(busy.chatCalls).toBe(0);
    const down = createRewardApp({ llm: createStubLlm({ chatError: 'connect ECONNREFUSED 127.0.0.1:9' }) });
    const response = await down.request('/health');
    expect(response.status).toBe(200);
    expect(await read(response)).toMatchObject({
      status: 'degraded',
      judge: { available: false, error: expect.stringContaining('ECONNREFUSED') },
    });
  });

  it('GET /v1/rewards/functions lists names, descriptions and required columns', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const body = await read(await app.request('/v1/rewards/functions'));
    expect(body.functions.map((fn: { name: string }) => fn.name)).toEqual([
      'format',
      'accuracy',
      'consistency',
      'tree_ops',
      'persona_consistency',
      'personavlm',
    ]);
    expect(body.functions.find((fn: { name: string }) => fn.name === 'tree_ops').requiredColumns).toEqual([
      'gt_ops',
    ]);
    for (const fn of body.functions) expect(fn.description.length).toBeGreaterThan(20);
    // What a client sends: the columns read (never memory_snapshot unless persona_consistency reads it).
    const personavlm = body.functions.find((fn: { name: string }) => fn.name === 'personavlm');
    expect(personavlm.columns).toEqual(
      expect.arrayContaining(['completion', 'solution', 'choices', 'prompt_id']),
    );
    expect(personavlm.columns).not.toContain('memory_snapshot');
    expect(body.limits).toEqual({ bodyLimitBytes: 8 * 1024 * 1024, maxItems: 4096 });
  });

  it('POST /get_reward speaks the OpenRLHF contract', async () => {
    const app = createRewardApp({ llm: createStubLlm(), config: { openrlhf: { reward: 'accuracy' } } });
    const response = await post(app, '/get_reward', {
      query: ['Which? <think>hm</think><answer>(a)</answer>', 'Which? <think>hm</think><answer>(b)</answer>'],
      prompts: ['Which? ', 'Which? '],
      labels: ['(a)', JSON.stringify({ solution: '(a)', choices: ['x', 'y'] })],
    });
    const body = await read(response);
    expect(body.rewards).toEqual([1, 0]);
    expect(body.scores).toEqual([1, 0]);
    expect(body.extra_logs.accuracy).toEqual([1, 0]);
    expect(body.extra_logs.pf_failed).toEqual([0, 0]);
    expect((await post(app, '/get_reward', { query: [] })).status).toBe(400);
  });

  it('POST /get_reward: every value a finite number per query, labels of any JSON type, end tokens stripped', async () => {
    const app = createRewardApp({ llm: createStubLlm(), config: { openrlhf: { reward: 'format' } } });
    const prompt = '<|im_start|>user\nWhich?<|im_end|>\n<|im_start|>assistant\n';
    const body = await read(
      await post(app, '/get_reward', {
        query: [`${prompt}<think>hm</think><answer>(a)</answer><|im_end|>`, 'unrelated text'],
        prompts: [prompt, prompt],
        labels: [{ solution: '(a)' }, 3],
      }),
    );
    expect(body.rewards[0]).toBe(1); // the end token does not cost format credit
    // The second query does not hold its prompt: invalid_item, resolved by the neutral policy.
    expect(body.rewards[1]).toBe(1);
    expect(body.extra_logs.pf_failed).toEqual([0, 1]);
    for (const value of [...body.rewards, ...body.scores, ...Object.values(body.extra_logs).flat()])
      expect(Number.isFinite(value)).toBe(true);
  });

  it('GET /metrics exposes requests, latency histograms, mean rewards, judge calls, cache hit rate and errors', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    await post(app, '/v1/rewards', {
      reward: 'format',
      items: [{ completion: THINK_ANSWER('x') }, { completion: '' }],
    });
    await post(app, '/v1/rewards', { reward: 'consistency', items: [{ completion: THINK_ANSWER('x') }] });
    await post(app, '/v1/rewards', { reward: 'consistency', items: [{ completion: THINK_ANSWER('x') }] });
    await post(app, '/v1/rewards', { reward: 'accuracy', items: [{ completion: 'x' }] });
    await post(app, '/v1/rewards', { reward: 'nope', items: [{ completion: 'x' }] });
    const response = await app.request('/metrics');
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('pf_reward_requests_total{endpoint="/v1/rewards",status="200"} 4');
    expect(text).toContain('pf_reward_requests_total{endpoint="/v1/rewards",status="400"} 1');
    expect(text).toMatch(
      /pf_reward_request_duration_seconds_bucket\{endpoint="\/v1\/rewards",le="\+Inf"\} 5/,
    );
    expect(text).toContain('pf_reward_mean{reward="format"} 0.5');
    expect(text).toContain('pf_reward_judge_calls_total{outcome="ok"} 1');
    expect(text).toContain('pf_reward_judge_cache_hit_ratio 0.5');
    expect(text).toContain('pf_reward_errors_total{code="not_applicable"} 1');
    expect(text).toContain('pf_reward_errors_total{code="invalid_request"} 1');
  });
});

describe('exported RL rows (src/export rlCandidates shape)', () => {
  const qaRow = {
    id: 'u-1:mc:q1',
    user_id: 'u-1',
    task: 'mc',
    answer_type: 'mc',
    messages: [
      { role: 'system', content: 'Profile: Mara, loves spicy food. Openness 4.' },
      { role: 'user', content: '[2024-05-01 10:00] Which food do I like?\nOptions:\n(a) Salad\n(b) Hotpot' },
    ],
    images: [],
    solution: '(b)',
    choices: ['(a) Salad', '(b) Hotpot'],
    gt_ops: '',
    question_time: '2024-05-01 10:00',
    memory_snapshot: '',
  };
  const treeRow = {
    ...qaRow,
    id: 'u-1:tree_ops:t1',
    task: 'tree_ops',
    answer_type: 'open',
    solution: 'ADD(4_Identity.Name, "Mara")',
    choices: [],
    gt_ops: 'ADD(4_Identity.Name, "Mara")',
  };

  it('scores a QA row with every content reward and marks tree_ops not applicable', async () => {
    const app = createRewardApp({ llm: createStubLlm() });
    const body = await read(
      await post(app, '/v1/rewards', {
        reward: ['personavlm', 'persona_consistency', 'tree_ops'],
        items: [{ ...qaRow, completion: THINK_ANSWER('Hotpot') }],
      }),
    );
    expect(body.components).toMatchObject({
      personavlm: [2.5],
      accuracy: [1],
      format: [1],
      persona_consistency: [1],
      tree_ops: [null],
    });
    expect(body.rewards).toEqual([3.5]);
  });

  it('scores a tree_ops row as an op list and marks the QA rewards not applicable', async () => {
    const app = createRewardApp({
      llm: createStubLlm({ offline: true }),
      config: { judge: { allowOffline: true } },
    });
    const body = await read(
      await post(app, '/v1/rewards', {
        reward: ['tree_ops', 'format', 'accuracy'],
        items: [{ ...treeRow, completion: 'ADD(4_Identity.Name, "Mara")' }],
      }),
    );
    expect(body.components).toEqual({ tree_ops: [1], format: [1], accuracy: [null] });
    expect(body.errors).toEqual([expect.objectContaining({ reward: 'accuracy', code: 'not_applicable' })]);
  });
});
