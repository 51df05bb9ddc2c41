import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { copySharedRun } from '../support/shared-run.js';

/**
 * README.md, run as a user would: every command line its sections *Commands*, *Pointing at a real
 * model*, *Pipeline files* and *Rewards and the retrieval environment* show runs as a subprocess
 * of the shipped binary, with only ports, hosts and directories changed (`npx --no-install
 * persona-forge` is `node bin/persona-forge.js`, which is what npx starts). The commands are read
 * from README.md itself, so this test changes when the README does.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const BIN = join(repoRoot, 'bin/persona-forge.js');
const PF = `"${process.execPath}" "${BIN}"`;
const exec = promisify(execFile);
const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');

/** The text of one `## ` section. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no section "${title}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Fenced code blocks of a section, with their language. */
function blocks(text: string): Array<{ lang: string; body: string }> {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] ?? '', body: m[2] ?? '' }));
}

/** Shell lines of a block: continuation lines joined, comments dropped. */
function shellLines(body: string): string[] {
  return body
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

let work: string;
const background: ChildProcess[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-readme-'));
  // A user's checkout: the shipped folders at the same relative paths.
  for (const folder of ['pipelines', 'configs', 'recipes', 'data', 'python']) {
    await symlink(join(repoRoot, folder), join(work, folder));
  }
  // What `make run` writes, which the Rewards section's retrieval example reads (the offline
  // quickstart, run once for every test file that reads it).
  await copySharedRun('quickstart', join(work, 'out/quickstart'));
});

afterAll(async () => {
  for (const child of background) child.kill('SIGTERM');
  await Promise.all(
    background.map(
      (child) => new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done))),
    ),
  );
  await rm(work, { recursive: true, force: true });
});

/** Runs README shell lines: `… &` lines start a tracked background process; the rest run in bash. */
async function runLines(
  lines: string[],
  rewrite: (line: string) => string,
  env: Record<string, string>,
): Promise<string[]> {
  const outputs: string[] = [];
  for (const raw of lines) {
    const line = rewrite(raw).replaceAll('npx --no-install persona-forge', PF);
    if (line.startsWith('export ')) {
      for (const [, key, value] of line.slice(7).matchAll(/(\w+)=(\S+)/g)) {
        env[key as string] = (value as string).replace(/^…$/, 'test-key');
      }
      continue;
    }
    if (line.endsWith('&')) {
      const child = spawn('bash', ['-c', `exec ${line.slice(0, -1)}`], { cwd: work, env, stdio: 'ignore' });
      background.push(child);
      const port = /--port (\d+)/.exec(line)?.[1];
      if (port !== undefined) {
        const until = Date.now() + 20_000;
        for (;;) {
          const up = await fetch(`http://127.0.0.1:${port}/health`).then(
            () => true,
            () => false,
          );
          const models = await fetch(`http://127.0.0.1:${port}/v1/models`).then(
            (r) => r.ok,
            () => false,
          );
          if (up || models) break;
          if (Date.now() > until) throw new Error(`nothing listens on ${port} after: ${line}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      continue;
    }
    const { stdout } = await exec('bash', ['-c', line], { cwd: work, env, maxBuffer: 1 << 26 });
    outputs.push(stdout);
  }
  return outputs;
}

const baseEnv = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

async function manifest(dir: string) {
  return JSON.parse(await readFile(join(work, dir, 'manifest.json'), 'utf8'));
}

describe('README.md, section by section, through the shipped binary', () => {
  it('Commands: every documented command and flag exists (its --help lists it)', async () => {
    const synopsis = blocks(section('Commands'))[0]?.body ?? '';
    const entries: Array<{ words: string[]; flags: string[] }> = [];
    for (const line of synopsis.split('\n')) {
      if (line.startsWith('persona-forge ')) {
        const words: string[] = [];
        for (const word of line.slice('persona-forge '.length).split(/\s+/)) {
          if (!/^[a-z][a-z0-9|-]*$/.test(word)) break;
          words.push(word);
        }
        entries.push({ words, flags: [] });
      }
      const current = entries.at(-1);
      for (const flag of line.matchAll(/--[a-z][a-z-]*/g)) current?.flags.push(flag[0]);
    }
    expect(entries.length).toBeGreaterThan(15);
    for (const { words, flags } of entries) {
      const [first, ...rest] = words;
      if (first === undefined)
        throw new Error(`cannot read the command of a synopsis line with flags ${flags.join(' ')}`);
      for (const command of (first as string).split('|')) {
        // `train chain` is train with arguments; others (`slurm run`, `dev fake-llm`) are subcommands.
        const path = command === 'train' ? [command] : [command, ...rest.slice(0, 1)];
        const { stdout } = await exec(process.execPath, [BIN, ...path, '--help'], { cwd: work });
        for (const flag of flags) expect(stdout, `${path.join(' ')} ${flag}`).toContain(flag);
      }
    }
  }, 300_000);

  it('Pointing at a real model: the run command, the endpoints/roles file, estimate and the fake model', async () => {
    const text = section('Pointing at a real model');
    const [runBlock, yamlBlock, fakeBlock] = blocks(text);
    const fakePort = await freePort();
    // A model server for the "real endpoint" lines: the shipped fake model.
    // It lists the README's model names: every run probes /v1/models before its first call.
    await runLines(
      [
        `npx --no-install persona-forge dev fake-llm --port ${fakePort} --model Qwen/Qwen2.5-72B-Instruct,gpt-4o-mini &`,
      ],
      (l) => l,
      baseEnv(),
    );
    const fakeUrl = `http://127.0.0.1:${fakePort}/v1`;

    // 1. One endpoint for every role.
    const env1 = baseEnv();
    await runLines(
      shellLines(runBlock?.body ?? ''),
      (l) => l.replace(/http:\/\/gpu-node:8000\/v1/, fakeUrl),
      env1,
    );
    const out1 = /--out (\S+)/.exec(runBlock?.body ?? '')?.[1] as string;
    const m1 = await manifest(out1);
    expect(m1.status).toBe('complete');
    expect(m1.offline).toMatchObject({ realizer: false, judge: false });
    expect(m1.usage.total.costUsd).toBeLessThanOrEqual(50);

    // 2. Several endpoints named in the pipeline file, roles mapped to them.
    expect(yamlBlock?.lang).toBe('yaml');
    const llm = parse((yamlBlock?.body ?? '').replace(/#.*$/gm, '')).llm as {
      endpoints: Record<string, { baseUrl: string | string[] }>;
    };
    for (const endpoint of Object.values(llm.endpoints)) {
      endpoint.baseUrl = Array.isArray(endpoint.baseUrl) ? endpoint.baseUrl.map(() => fakeUrl) : fakeUrl;
    }
    await writeFile(
      join(work, 'with-endpoints.yaml'),
      // The README's llm section in a small pipeline (its judge endpoint is rate-limited to 500/min).
      stringify({
        extends: './pipelines/quickstart.yaml',
        personas: { train: 2, test: 1 },
        llm: { ...llm, cache: { dir: '.pf-cache/endpoints' } },
      }),
    );
    await exec(process.execPath, [BIN, 'run', 'with-endpoints.yaml', '--out', 'out/endpoints', '--quiet'], {
      cwd: work,
      env: { ...baseEnv(), OPENAI_API_KEY: 'test-key' },
    });
    const m2 = await manifest('out/endpoints');
    expect(m2.status).toBe('complete');
    // "roles with no endpoint stay offline"
    expect(m2.offline).toEqual({ realizer: false, judge: false, embedder: true });
    expect(m2.usage.byEndpoint.big.calls).toBeGreaterThan(0);
    expect(m2.usage.byEndpoint.judge.calls).toBeGreaterThan(0);

    // 3. estimate predicts calls, tokens and cost.
    expect(text).toContain('persona-forge estimate <pipeline.yaml>');
    const { stdout: estimate } = await exec(process.execPath, [BIN, 'estimate', 'with-endpoints.yaml'], {
      cwd: work,
      env: { ...baseEnv(), OPENAI_API_KEY: 'test-key' },
    });
    expect(estimate).toMatch(/calls/i);
    expect(estimate).toMatch(/tokens/i);
    expect(estimate).toMatch(/\$|cost/i);

    // 4. The fake model, exactly as shown (another port).
    const port = await freePort();
    await runLines(shellLines(fakeBlock?.body ?? ''), (l) => l.replaceAll('9000', String(port)), baseEnv());
    const out4 = /--out (\S+)/.exec(fakeBlock?.body ?? '')?.[1] as string;
    const m4 = await manifest(out4);
    expect(m4.status).toBe('complete');
    expect(m4.offline.realizer).toBe(false);
    // The fake model reports its prefix cache's hits; the manifest records them per stage.
    expect(m4.usage.byStage.synth.cachedPromptTokens).toBeGreaterThan(0);
    expect(m4.usage.byStage.synth.cachedPromptTokens).toBeLessThan(m4.usage.byStage.synth.promptTokens);
    expect(await readFile(join(work, out4, 'quarantine.jsonl'), 'utf8')).toBe('');
  }, 300_000);

  it('Pipeline files: schema writes JSON Schemas; errors read as documented; ${VAR:-default} and extends work', async () => {
    const text = section('Pipeline files');
    const schemaCommand = /`(persona-forge schema --out \S+)`/.exec(text)?.[1] as string;
    await exec('bash', ['-c', schemaCommand.replace('persona-forge', PF)], { cwd: work });
    const dir = /--out (\S+)/.exec(schemaCommand)?.[1] as string;
    const schemas = await readdir(join(work, dir));
    expect(schemas.some((f) => f.endsWith('.json'))).toBe(true);
    for (const file of schemas) JSON.parse(await readFile(join(work, dir, file), 'utf8'));

    // The documented error, with its YAML path, suggestion and line number.
    const example = /`(at personas\.trian: [^`]+)`/.exec(text)?.[1] as string;
    const line = Number(/\(line (\d+)\)/.exec(example)?.[1]);
    const bad = [
      'extends: ./pipelines/quickstart.yaml',
      ...Array.from({ length: line - 3 }, (_, i) => `# filler ${i}`),
      'personas:',
      '  trian: 4',
    ];
    await writeFile(join(work, 'typo.yaml'), `${bad.join('\n')}\n`);
    const failed = await exec(process.execPath, [BIN, 'run', 'typo.yaml', '--out', 'out/typo'], {
      cwd: work,
    }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toContain(example);

    // ${VAR:-default} and extends.
    await writeFile(
      join(work, 'env.yaml'),
      'extends: ./pipelines/quickstart.yaml\nstages: [plan]\npersonas:\n  train: ${PF_README_TRAIN:-2}\n  test: 1\n',
    );
    await exec(process.execPath, [BIN, 'run', 'env.yaml', '--out', 'out/env-default', '--quiet'], {
      cwd: work,
    });
    await exec(process.execPath, [BIN, 'run', 'env.yaml', '--out', 'out/env-set', '--quiet'], {
      cwd: work,
      env: { ...baseEnv(), PF_README_TRAIN: '3' },
    });
    expect((await manifest('out/env-default')).stages[0].out).toBe(3);
    expect((await manifest('out/env-set')).stages[0].out).toBe(4);
  }, 300_000);

  it('Rewards: serve and the documented curl calls answer as the README says', async () => {
    const text = section('Rewards and the retrieval environment');
    const block = blocks(text).find((b) => b.body.includes('curl'));
    expect(block).toBeDefined();
    const judgePort = await freePort();
    const serverPort = await freePort();
    const env = baseEnv();
    const outputs = await runLines(
      shellLines(block?.body ?? ''),
      (l) =>
        l
          .replaceAll(':8001', `:${judgePort}`)
          .replaceAll('--port 8001', `--port ${judgePort}`)
          .replaceAll(':8000', `:${serverPort}`)
          .replaceAll('--port 8000', `--port ${serverPort}`),
      env,
    );
    const [health, functions, rewards, retrieve] = outputs.map((o) => JSON.parse(o));
    expect(health).toMatchObject({ status: 'ok', judge: { model: 'fake', offline: false } });
    expect(JSON.stringify(functions)).toContain('personavlm');
    expect(rewards).toMatchObject({ rewards: [2], components: { format: [1], accuracy: [1] }, errors: [] });
    expect(retrieve.block).toMatch(/^<memory>\nSemantic memory:\n1\. /);
  }, 300_000);

  it('Evaluate: the oracle run prints the table README shows', async () => {
    const text = section('Evaluate');
    const block = blocks(text).find((b) => b.body.includes('--oracle'));
    expect(block).toBeDefined();
    const port = await freePort();
    const outputs = await runLines(
      shellLines(block?.body ?? ''),
      (l) => l.replaceAll(':8002', `:${port}`).replaceAll('--port 8002', `--port ${port}`),
      baseEnv(),
    );
    const printed = (outputs.at(-1) ?? '').split('\n').filter((line) => line.startsWith('|'));
    const shown = text.split('\n').filter((line) => line.startsWith('|'));
    expect(printed.length).toBeGreaterThan(10);
    expect(printed).toEqual(shown);
  }, 300_000);
});
