import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors/index.js';
import { pushToHub } from '../../src/export/index.js';
import { encodeParquet } from '../../src/export/parquet.js';
import { type HubCommitServer, startHubCommitServer } from '../support/hub-commit-server.js';

let dir: string;
let hub: HubCommitServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-push-'));
  await mkdir(join(dir, 'sft'), { recursive: true });
  await writeFile(join(dir, 'README.md'), '---\nlicense: apache-2.0\n---\n# card\n');
  await writeFile(join(dir, 'sft', 'train.jsonl'), '{"id":"a"}\n');
  await writeFile(
    join(dir, 'sft', 'train.parquet'),
    encodeParquet([{ id: 'a', messages: [{ role: 'user', content: 'hi' }], images: [] }]),
  );
  hub = await startHubCommitServer({ token: 'hf_test' });
});
afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pushToHub', () => {
  it('lists files and sizes on a dry run without any request', async () => {
    const calls: string[] = [];
    const result = await pushToHub(dir, {
      repo: 'me/demo',
      dryRun: true,
      fetch: async (input) => {
        calls.push(String(input));
        return new Response();
      },
    });
    expect(calls).toEqual([]);
    expect(result.files.map((file) => file.path)).toEqual([
      'README.md',
      'sft/train.jsonl',
      'sft/train.parquet',
    ]);
    expect(result.files[1]!.bytes).toBe(11);
    expect(result.totalBytes).toBe(result.files.reduce((sum, file) => sum + file.bytes, 0));
    expect(result.commit).toBeNull();
  });

  it('creates the repo and commits every file through the library (LFS for parquet)', async () => {
    const result = await pushToHub(dir, {
      repo: 'me/demo',
      private: true,
      hubUrl: hub.url,
      token: 'hf_test',
    });
    expect(result.created).toBe(true);
    expect(result.commit?.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(hub.repos.get('me/demo')).toEqual({ private: true, type: 'dataset' });
    expect(hub.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/repos/create',
      'POST /api/datasets/me/demo/preupload/main',
      'POST /datasets/me/demo.git/info/lfs/objects/batch',
      expect.stringMatching(/^PUT \/lfs-upload\/[0-9a-f]{64}$/),
      'POST /api/datasets/me/demo/commit/main',
    ]);
    const commit = hub.commits[0]!;
    expect([...commit.files.keys()].sort()).toEqual(['README.md', 'sft/train.jsonl', 'sft/train.parquet']);
    for (const [path, bytes] of commit.files)
      expect(bytes.equals(await readFile(join(dir, path))), path).toBe(true);
  });

  it('pushes again into an existing repo (409 on create is fine)', async () => {
    const result = await pushToHub(dir, { repo: 'me/demo', hubUrl: hub.url, token: 'hf_test' });
    expect(result.created).toBe(false);
    expect(hub.commits).toHaveLength(2);
  });

  it('fails with a HubError on a bad token or missing token', async () => {
    await expect(
      pushToHub(dir, { repo: 'me/other', hubUrl: hub.url, token: 'wrong' }),
    ).rejects.toBeInstanceOf(HubError);
    await expect(pushToHub(dir, { repo: 'me/other', hubUrl: hub.url })).rejects.toThrow(/token/);
    await expect(pushToHub(dir, { repo: 'not-a-repo', dryRun: true })).rejects.toThrow(/org\/name/);
  });
});
