import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { runCli, runFiles } from '../support/cli.js';
import { fakeModelArgs } from '../support/fake-llm.js';
import { copySharedRun, sharedRun } from '../support/shared-run.js';

/** User paths through the shipped binary: empty results, seed changes, `--json`, closed pipes. */
const repoRoot = resolve(import.meta.dirname, '../..');
const BIN = join(repoRoot, 'bin/persona-forge.js');
let work: string;
let small: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-user-paths-'));
  // The quickstart with 4 + 2 users, whose uninterrupted run other test files share.
  ({ pipeline: small } = await sharedRun('small'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const pf = (args: string[], env?: Record<string, string | undefined>) => runCli(work, args, env);

const tree = runFiles;

describe('a stage that ends with nothing left', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    // A model that answers every realizer chunk with no turns at all.
    server = await startFakeLlmServer({
      respond: (request) =>
        request.messages.some((m) => m.content.includes('WRITE THESE ROUNDS:')) ? { turns: [] } : undefined,
    });
  });
  afterAll(async () => server.close());

  it('exits 3 with the reason, no stack trace, every user in quarantine.jsonl, report-less manifest marked empty', async () => {
    const out = join(work, 'empty');
    const result = await pf(['run', small, '--out', out, ...fakeModelArgs(server.url)]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /no records left after synth: 6 of 6 quarantined — see quarantine\.jsonl \(top reasons: .*realizer returned missing or empty turns/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const quarantine = (await readFile(join(out, 'quarantine.jsonl'), 'utf8')).trim().split('\n');
    expect(quarantine.map((l) => JSON.parse(l).inputId).sort()).toEqual([
      'test-00000',
      'test-00001',
      'train-00000',
      'train-00001',
      'train-00002',
      'train-00003',
    ]);
    for (const line of quarantine) expect(JSON.parse(line).reason).toMatch(/empty turns/);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.status).toBe('empty');
    expect(manifest.stages.find((s: { name: string }) => s.name === 'synth').status).toBe('empty');
    expect(await readFile(join(out, 'dialogues/dialogues.jsonl'), 'utf8')).toBe('');
    // With --json the same stop is a JSON event on stdout.
    const json = await pf([
      'run',
      small,
      '--out',
      join(work, 'empty-json'),
      '--json',
      ...fakeModelArgs(server.url),
    ]);
    expect(json.code).toBe(3);
    const events = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'EMPTY_RESULT', exitCode: 3 });
    expect(events.find((e) => e.type === 'run-end')).toMatchObject({ ok: false, status: 'empty' });
  }, 300_000);
});

describe('seed and configuration changes in a used run directory', () => {
  it('seed 3 then seed 9 into one directory equals a fresh seed-9 run byte for byte', async () => {
    const reused = join(work, 'reused');
    const fresh = join(work, 'fresh9');
    expect((await pf(['run', small, '--out', reused, '--seed', '3', '--quiet'])).code).toBe(0);
    const seed3 = await tree(reused);
    expect((await pf(['run', small, '--out', reused, '--seed', '9', '--quiet'])).code).toBe(0);
    expect((await pf(['run', small, '--out', fresh, '--seed', '9', '--quiet'])).code).toBe(0);
    const a = await tree(reused);
    const b = await tree(fresh);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [rel, bytes] of b) expect(a.get(rel)?.equals(bytes), rel).toBe(true);
    // The seed-3 images are gone, and the exports really differ from seed 3.
    expect([...a.keys()].some((k) => k.includes('scene-3-'))).toBe(false);
    expect(seed3.get('export/sft/train.jsonl')?.equals(a.get('export/sft/train.jsonl') as Buffer)).toBe(
      false,
    );
    const manifest = JSON.parse(await readFile(join(reused, 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.files).sort()).toEqual([...b.keys()].sort());
  }, 300_000);

  it('a smaller persona count leaves no stale files behind', async () => {
    const dir = join(work, 'shrink');
    const fewer = join(work, 'fewer.yaml');
    await writeFile(fewer, `extends: ${small}\npersonas:\n  train: 2\n  test: 1\n`);
    const fresh = join(work, 'fewer-fresh');
    // A finished run of `small` in `dir`.
    await copySharedRun('small', dir);
    expect((await pf(['run', fewer, '--out', dir, '--quiet'])).code).toBe(0);
    expect((await pf(['run', fewer, '--out', fresh, '--quiet'])).code).toBe(0);
    const a = await tree(dir);
    const b = await tree(fresh);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [rel, bytes] of b) expect(a.get(rel)?.equals(bytes), rel).toBe(true);
  }, 300_000);
});

describe('--json', () => {
  it('puts configuration and usage errors on stdout as JSON events with exit codes 1 and 2', async () => {
    const bad = join(work, 'bad.yaml');
    await writeFile(bad, `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\npersonas:\n  trian: 4\n`);
    const config = await pf(['run', bad, '--out', join(work, 'bad'), '--json']);
    expect(config.code).toBe(1);
    expect(config.stderr).toBe('');
    const event = JSON.parse(config.stdout.trim());
    expect(event).toMatchObject({ type: 'error', code: 'CONFIG_INVALID', exitCode: 1 });
    expect(event.message).toMatch(/personas\.trian: unknown key: did you mean "train"\?/);
    const usage = await pf(['run', small, '--json']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('');
    expect(JSON.parse(usage.stdout.trim())).toMatchObject({ type: 'error', code: 'USAGE', exitCode: 2 });
  });

  it('`run … --json | head -1` ends quietly (no EPIPE stack trace)', async () => {
    const out = join(work, 'pipe');
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(
        'bash',
        ['-c', `"${process.execPath}" "${BIN}" run "${small}" --out "${out}" --json | head -1 > /dev/null`],
        {
          cwd: work,
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let text = '';
      child.stderr.on('data', (c: Buffer) => {
        text += c.toString();
      });
      child.on('exit', (c) => done({ code: c, stderr: text }));
    });
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Error/);
  }, 300_000);
});

describe('a memory record edited after the run', () => {
  it('whose index names another trace: validate quarantines the user (input), export leaves it out', async () => {
    const out = join(work, 'edited-memory');
    await copySharedRun('small', out);
    const memoryFile = join(out, 'memory', 'memory.jsonl');
    const records = (await readFile(memoryFile, 'utf8')).trim().split('\n');
    const record = JSON.parse(records[1] as string) as { userId: string; packed: { index: string } };
    const index = JSON.parse(brotliDecompressSync(Buffer.from(record.packed.index, 'base64')).toString());
    index.traces[2][0] = `${index.traces[2][0]}-renamed`;
    record.packed.index = brotliCompressSync(JSON.stringify(index)).toString('base64');
    records[1] = JSON.stringify(record);
    await writeFile(memoryFile, `${records.join('\n')}\n`);

    expect((await pf(['validate', out, '--quiet'])).code).toBe(0);
    const quarantine = (await readFile(join(out, 'quarantine.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { inputId: string; check: string; reason: string });
    expect(quarantine).toContainEqual(
      expect.objectContaining({
        inputId: record.userId,
        check: 'input',
        reason: expect.stringMatching(/memory record fails its schema: .*index disagrees with its traces/),
      }),
    );

    const exported = await pf(['export', out, '--quiet']);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const stats = JSON.parse(await readFile(join(out, 'export', 'stats.json'), 'utf8'));
    expect(stats.excluded).toBe(1);
    for (const file of ['sft/train.jsonl', 'sft/test.jsonl', 'rl/train.jsonl', 'rl/test.jsonl'])
      expect(await readFile(join(out, 'export', file), 'utf8')).not.toContain(`"user_id":"${record.userId}"`);
  }, 300_000);
});
