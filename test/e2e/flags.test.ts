import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.js';
import { copySharedRun } from '../support/shared-run.js';

/** Issue 28 items 9 and 10 through the shipped binary: every flag does what it says, or is refused. */
const repoRoot = resolve(import.meta.dirname, '../..');
let work: string;
let small: string;
let run: string;
const pf = (args: string[]) => runCli(work, args);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-flags-'));
  // The quickstart with 4 + 2 users and a copy of its run (made once for every test file that reads it).
  run = join(work, 'run');
  ({ pipeline: small } = await copySharedRun('small', run));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('flags that would be ignored or misread are refused', () => {
  it('--version prints the package version; an unknown subcommand with --help exits 2', async () => {
    const version = await pf(['--version']);
    expect(version.code).toBe(0);
    const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
    expect(version.stdout.trim()).toBe(pkg.version);
    const unknown = await pf(['frobnicate', '--help']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
    expect((await pf(['slurm', 'frob', '--help'])).code).toBe(2);
    expect((await pf(['slurm', 'run', '--help'])).code).toBe(0);
  });

  it('train --submit without --slurm starts nothing; slurm --mem needs a unit', async () => {
    const submit = await pf(['train', join(repoRoot, 'recipes/personavlm-sft.yaml'), '--submit']);
    expect(submit.code).toBe(1);
    expect(submit.stderr).toMatch(/--submit: only applies with --slurm .*nothing was started/);
    expect(submit.stdout).toBe('');
    const mem = await pf(['slurm', 'run', small, '--out', join(work, 'sl'), '--shards', '2', '--mem', '8']);
    expect(mem.code).toBe(2);
    expect(mem.stderr).toMatch(/give a unit: 16G .*Slurm reads a bare number as megabytes/);
  });

  it('--seed on validate and --llm-* on report are refused; a URL without a scheme is one line', async () => {
    const seed = await pf(['validate', run, '--seed', '7']);
    expect(seed.code).toBe(1);
    expect(seed.stderr).toMatch(/--seed: does not apply to `validate`/);
    const report = await pf(['report', run, '--llm-base-url', 'http://127.0.0.1:9/v1', '--llm-model', 'x']);
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(/does not apply to `report`: it calls no model/);
    const url = await pf([
      'run',
      small,
      '--out',
      join(work, 'u'),
      '--llm-base-url',
      'localhost:8000/v1',
      '--llm-model',
      'm',
    ]);
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/expected an http\(s\) URL such as http:\/\/localhost:8000\/v1/);
    expect(url.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('/get_reward with prompts or labels of another length than query is a 400 (the shipped serve)', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((ready, fail) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          const match = /reward server on (\S+)/.exec(chunk.toString());
          if (match?.[1] !== undefined) ready(match[1]);
        });
        child.on('exit', (code) => fail(new Error(`serve exited ${code}`)));
      });
      const response = await fetch(`${url.replace(/\/$/, '')}/get_reward`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: ['Q? <answer>a</answer>', 'Q? <answer>b</answer>'],
          prompts: ['Q? '],
          labels: ['a', 'b'],
        }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/prompts has 1 items but query has 2/);
    } finally {
      child.kill('SIGTERM');
    }
  }, 300_000);
});

describe('dataset card and push', () => {
  it('the card has a default config, lists only evaluation sets with questions; push of a run folder is refused', async () => {
    const card = await readFile(join(run, 'export/README.md'), 'utf8');
    const { parse } = await import('yaml');
    const front = parse(card.split('---\n')[1] as string) as {
      configs: Array<{ config_name: string; default?: boolean }>;
    };
    expect(front.configs.filter((c) => c.default === true).map((c) => c.config_name)).toEqual(['sft']);
    const stats = JSON.parse(await readFile(join(run, 'export/stats.json'), 'utf8'));
    expect(stats.eval.personamem.questions).toBe(0);
    expect(card).not.toMatch(/eval\/personamem\/questions.csv/);
    expect(card).toMatch(/eval\/persona-mme\/Persona-MME.json/);
    const push = await pf(['push', run, '--repo', 'me/demo', '--dry-run']);
    expect(push.code).toBe(1);
    expect(push.stderr).toMatch(/is a run folder, not an export/);
    expect(push.stderr).toContain(`persona-forge push ${join(run, 'export')} --repo me/demo`);
    expect((await pf(['push', join(run, 'export'), '--repo', 'me/demo', '--dry-run'])).code).toBe(0);
  });

  it('images are the datasets Image feature in the Parquet files and the card (bytes embedded), paths in jsonl', async () => {
    const { parse } = await import('yaml');
    const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
    const card = parse(
      (await readFile(join(run, 'export/README.md'), 'utf8')).split('---\n')[1] as string,
    ) as {
      dataset_info: Array<{ config_name: string; features: Array<Record<string, string>> }>;
    };
    for (const info of card.dataset_info)
      expect(info.features.find((feature) => feature.name === 'images')).toEqual({
        name: 'images',
        sequence: 'image',
      });
    const bytes = await readFile(join(run, 'export/sft/train.parquet'));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const kv = parquetMetadata(file).key_value_metadata ?? [];
    const features = JSON.parse(kv.find((entry) => entry.key === 'huggingface')?.value as string).info
      .features;
    expect(features.images).toEqual({ feature: { _type: 'Image' }, _type: 'List' });
    const rows = (await parquetReadObjects({ file, utf8: false })) as Array<{
      images: Array<{ bytes: Uint8Array; path: string }>;
    }>;
    const jsonl = (await readFile(join(run, 'export/sft/train.jsonl'), 'utf8')).trim().split('\n');
    const image = rows.flatMap((row) => row.images)[0];
    expect(image).toBeDefined();
    expect(
      Buffer.from(image?.bytes as Uint8Array).equals(
        await readFile(join(run, 'export', image?.path as string)),
      ),
    ).toBe(true);
    expect(jsonl.some((line) => line.includes(`"images":["${image?.path}"`))).toBe(true);
  });
});

describe('progress and interruption', () => {
  it('validate shows a measured rate, not 0.0/s ETA --', async () => {
    const result = await pf(['validate', run]);
    expect(result.code, result.stderr).toBe(0);
    const last = result.stderr
      .split('\n')
      .filter((line) => /^\[validate\] \d+\/\d+ users/.test(line))
      .at(-1);
    expect(last).toBeDefined();
    expect(last).toMatch(/· (?!0\.0\/s)[\d.]+\/s · ETA \d+s/);
  }, 300_000);

  it('dev fake-llm and serve do not share a default port', async () => {
    const fake = await pf(['dev', 'fake-llm', '--help']);
    const serve = await pf(['serve', '--help']);
    expect(fake.stdout).toMatch(/default 8001/);
    expect(serve.stdout).toMatch(/default 8000/);
  });

  it('Ctrl-C stops run cleanly, says what was kept and how to resume, and the same command finishes', async () => {
    const out = join(work, 'interrupted');
    const big = join(work, 'big.yaml');
    await writeFile(big, `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\n`);
    const child = spawn(process.execPath, [BIN, 'run', big, '--out', out, '--workers', '1'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    for (let i = 0; i < 1200 && !/\[(synth|memory)\]/.test(stderr); i++)
      await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted \(SIGINT\): kept plan \(\d+ users\)/);
    expect(stderr).toContain(`resume with the same command: persona-forge run ${big} --out ${out}`);
    const resumed = await pf(['run', big, '--out', out, '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
  }, 300_000);
});
