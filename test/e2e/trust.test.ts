import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startFakeLlmServer } from '../support/fake-llm.js';
import { plantSelfNaming } from '../support/self-naming.js';

/**
 * Issue 28, "failures never read as results", through the shipped binary: eval errors are not
 * scores, every endpoint is probed before the first model call, a budget needs a price, eval
 * compare's A/B and overall, and fidelity alarms (--strict).
 */
const repoRoot = resolve(import.meta.dirname, '../..');
let work: string;
let small: string;
let run: string;
const servers: Server[] = [];

const pf = (args: string[], env?: Record<string, string | undefined>) => runCli(work, args, env);

/** A port nothing listens on (taken from the kernel, then released). */
async function closedPort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * A served model that answers "(a)" to every question, except that while `failing` is set it
 * refuses a third of the questions (chosen by their text) with HTTP 400, as a server does for a
 * prompt over its context window. Counts the question requests.
 */
async function flakyModel(): Promise<{ url: string; state: { failing: boolean; questions: number } }> {
  const state = { failing: true, questions: 0 };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET' && request.url?.endsWith('/models'))
      return json(response, 200, { object: 'list', data: [{ id: 'm', object: 'model' }] });
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text) as { messages: Array<{ content: string }> };
    const last = body.messages[body.messages.length - 1]?.content ?? '';
    if (last !== 'ping') {
      state.questions++;
      const hash = createHash('sha256').update(last).digest()[0] as number;
      if (state.failing && hash % 3 === 0)
        return json(response, 400, { error: { message: 'prompt is longer than the context window' } });
    }
    return json(response, 200, {
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '(a)' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
    });
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/v1`,
    state,
  };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-trust-'));
  small = join(work, 'small.yaml');
  await writeFile(
    small,
    `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\npersonas:\n  train: 4\n  test: 2\n`,
  );
  run = join(work, 'run');
  const result = await pf(['run', small, '--out', run, '--quiet', '--strict']);
  // A clean corpus passes --strict.
  expect(result.code, result.stderr).toBe(0);
}, 300_000);
afterAll(async () => {
  for (const server of servers) server.close();
  await rm(work, { recursive: true, force: true });
});

describe('eval: a failed question is an error, never a score', () => {
  it('exits 1 naming the URL, keeps failures out of every score, and a rerun asks only the failed ones', async () => {
    const model = await flakyModel();
    const set = join(run, 'export/eval');
    const out = join(work, 'flaky');
    const args = [
      'eval',
      set,
      '--out',
      out,
      '--llm-base-url',
      model.url,
      '--llm-model',
      'm',
      '--limit',
      '60',
    ];
    const failed = await pf(args);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/EVAL_FAILED/);
    expect(failed.stderr).toContain(`${model.url} (model m)`);
    expect(failed.stderr).toMatch(/\d+ of 60 questions failed after retries/);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    const items = (await readFile(join(out, 'items.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const errors = items.filter((item) => item.error !== undefined);
    expect(errors.length).toBeGreaterThan(5);
    expect(summary.errors).toBe(errors.length);
    expect(summary.scored).toBe(60 - errors.length);
    expect(errors.every((item) => item.score === null && item.error.includes(model.url))).toBe(true);
    // Rows count only the answered questions.
    const rows = summary.rows.filter((row: { by: string }) => row.by === 'overall' || row.by === 'alignment');
    expect(rows.reduce((n: number, row: { n: number }) => n + row.n, 0)).toBe(summary.scored);
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(
      /## Errors \(not scored\)[\s\S]*prompt is longer than the context window \| \d+ \|/,
    );
    expect(await readFile(join(out, 'report.html'), 'utf8')).toMatch(
      /class="alarm"[^>]*>.*failed and are not scored/,
    );

    // A tolerated share: the same outputs, exit 0.
    const tolerated = await pf([
      ...args.slice(0, 3),
      join(work, 'tolerated'),
      ...args.slice(4),
      '--max-error-rate',
      '0.6',
    ]);
    expect(tolerated.code, tolerated.stderr).toBe(0);

    // The server fixed: only the failed questions are asked again.
    model.state.failing = false;
    const before = model.state.questions;
    const again = await pf(args);
    expect(again.code, again.stderr).toBe(0);
    expect(model.state.questions - before).toBe(errors.length);
    const fixed = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'));
    expect(fixed.errors).toBe(0);
    expect(fixed.scored).toBe(60);
  }, 300_000);
});

describe('every endpoint is probed before any model call', () => {
  it('run and eval against a dead URL stop in seconds with the URL and the model, and create nothing', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const out = join(work, 'dead');
    const result = await pf(['run', small, '--out', out, '--llm-base-url', url, '--llm-model', 'qwen-x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`probe of ${url} (model qwen-x) failed`);
    expect(result.stderr).toMatch(/ECONNREFUSED/);
    expect(existsSync(out)).toBe(false);
    const evaluated = await pf(
      ['eval', join(run, 'export/eval'), '--out', join(work, 'dead-eval')].concat([
        '--llm-base-url',
        url,
        '--llm-model',
        'qwen-x',
      ]),
    );
    expect(evaluated.code).toBe(1);
    expect(evaluated.stderr).toContain(`probe of ${url} (model qwen-x) failed`);
    expect(evaluated.stdout).not.toMatch(/overall|0\.0/);
    expect(existsSync(join(work, 'dead-eval/summary.json'))).toBe(false);
  }, 300_000);

  it('names the models a server lists when the model is wrong, and the variable when the key is missing', async () => {
    const server = await startFakeLlmServer({ models: ['Qwen/Qwen3-8B'] });
    try {
      const wrong = await pf([
        'run',
        small,
        '--out',
        join(work, 'wrong'),
        '--llm-base-url',
        server.url,
        '--llm-model',
        'qwen3',
      ]);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain('does not serve model "qwen3"; it lists: Qwen/Qwen3-8B');
      expect(server.stats.chatRequests).toBe(0);
      const env = { ...process.env, PF_TRUST_NO_KEY: undefined };
      const keyless = await pf(
        [
          'eval',
          join(run, 'export/eval'),
          '--out',
          join(work, 'keyless'),
          '--llm-base-url',
          server.url,
        ].concat(['--llm-model', 'Qwen/Qwen3-8B', '--llm-api-key-env', 'PF_TRUST_NO_KEY']),
        env,
      );
      expect(keyless.code).toBe(1);
      expect(keyless.stderr).toMatch(/environment variable PF_TRUST_NO_KEY .* is not set/);
      expect(server.stats.requests).toBe(1);
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('--budget-usd needs a price', () => {
  it('is refused without one, with the flags as the hint; --price-*-per-m and known models make it fire', async () => {
    const server = await startFakeLlmServer({ models: ['fake', 'gpt-4o-mini'] });
    try {
      const base = ['run', small, '--llm-base-url', server.url, '--budget-usd', '0.0001', '--quiet'];
      const refused = await pf([...base, '--out', join(work, 'b0'), '--llm-model', 'fake']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/a budget of \$0.0001 cannot be enforced: endpoint "cli" \(model fake/);
      expect(refused.stderr).toMatch(/hint: pass --price-input-per-m USD --price-output-per-m USD/);
      expect(server.stats.requests).toBe(0);
      const env = { ...process.env };
      // Priced by the flags: the budget stops the run (exit 4).
      const priced = await pf(
        [
          ...base,
          '--out',
          join(work, 'b1'),
          '--llm-model',
          'fake',
          '--price-input-per-m',
          '5',
          '--price-output-per-m',
          '15',
        ],
        env,
      );
      expect(priced.code, priced.stderr).toBe(4);
      // A known hosted model is priced without flags.
      const known = await pf(
        [...base.slice(0, 5), '0.003', '--quiet', '--out', join(work, 'b2'), '--llm-model', 'gpt-4o-mini'],
        env,
      );
      expect(known.code, known.stderr).toBe(4);
      expect(
        JSON.parse(await readFile(join(work, 'b2/manifest.json'), 'utf8')).usage.total.costUsd,
      ).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('eval compare', () => {
  it("says which folder is A and B, prints Δ = B − A with its sign, and its overall is eval's overall", async () => {
    const model = await flakyModel();
    model.state.failing = false;
    const set = join(run, 'export/eval');
    const a = join(work, 'cmp-a');
    expect((await pf(['eval', set, '--out', a, '--llm-base-url', model.url, '--llm-model', 'm'])).code).toBe(
      0,
    );
    // B: the gold answers for every question (a perfect model), written as eval writes them.
    const items = (await readFile(join(a, 'items.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const b = join(work, 'cmp-b');
    await rm(b, { recursive: true, force: true });
    const { mkdir } = await import('node:fs/promises');
    await mkdir(b, { recursive: true });
    await writeFile(
      join(b, 'items.jsonl'),
      items
        .map((item) => `${JSON.stringify({ ...item, score: 1, output: item.answer, parsed: item.answer })}\n`)
        .join(''),
    );
    const compare = await pf(['eval', 'compare', a, b]);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toContain(`A = ${a}, B = ${b}`);
    const summary = JSON.parse(await readFile(join(a, 'summary.json'), 'utf8'));
    const overall = summary.rows.find(
      (row: { by: string; format: string }) => row.format === 'persona-mme' && row.by === 'overall',
    );
    const row = /\| persona-mme \| \(overall\) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([+-][\d.]+) \|/.exec(
      compare.stdout,
    );
    expect(row, compare.stdout).not.toBeNull();
    expect(Number(row?.[1])).toBe(overall.n);
    expect(Math.abs(Number(row?.[2]) - overall.score * 100)).toBeLessThanOrEqual(0.051);
    expect(Number(row?.[3])).toBe(100);
    // B is better: a positive delta, printed with its sign.
    expect(row?.[4]?.startsWith('+')).toBe(true);
    // Personality alignment is a property of primary cases (no standalone questions), so no row of its own.
    expect(compare.stdout).not.toMatch(/\| persona-mme \| \(alignment\) \|/);
  }, 300_000);
});

describe('fidelity alarms', () => {
  it('are printed at the end of validate; --strict and validate.strict: true make them exit 1', async () => {
    // A corpus whose users say their own full name: the self_naming figure goes off target.
    const path = join(run, 'dialogues/dialogues.jsonl');
    const { original, tampered } = await plantSelfNaming(run);
    const plain = await pf(['validate', run]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(/fidelity alarms: 1 figure off target/);
    expect(plain.stderr).toMatch(
      /self_naming [\d.]+% \(target ≤ 0%; \d+ of \d+\): user turns in which the user says their own full name/,
    );
    const strict = await pf(['validate', run, '--strict', '--quiet']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/VALIDATION_FAILED.*off target \(strict\): self_naming/);
    const json = await pf(['validate', run, '--json']);
    expect(json.stdout).toMatch(/"type":"alarm","name":"self_naming"/);

    // validate.strict: true in the pipeline file (recorded in the run's manifest) does the same.
    const strictFile = join(work, 'strict.yaml');
    await writeFile(strictFile, `extends: ${small}\nvalidate:\n  strict: true\n`);
    const strictRun = join(work, 'strict-run');
    expect((await pf(['run', strictFile, '--out', strictRun, '--quiet'])).code).toBe(0);
    await writeFile(join(strictRun, 'dialogues/dialogues.jsonl'), tampered);
    const configured = await pf(['validate', strictRun, '--quiet']);
    expect(configured.code).toBe(1);
    expect(configured.stderr).toMatch(/off target \(strict\): self_naming/);
    await writeFile(path, original);
  }, 300_000);
});
