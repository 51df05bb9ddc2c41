import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { copySharedRun } from '../support/shared-run.js';

/**
 * What ms-swift gets from a quickstart export, through the shipped binary as README documents it
 * (`make run`, then `train … --dry-run` with the fake `swift` on PATH), checked the way ms-swift
 * itself resolves images (`swift/template/vision_utils.py`: the path as given from the working
 * directory, else joined to ROOT_IMAGE_DIR) and fills `<image>` tags (in order, one per image).
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const fakeSwift = join(repoRoot, 'test/support/fake-swift');
let work: string;
let exportDir: string;
let elsewhere: string;

interface Row {
  id: string;
  user_id: string;
  task: string;
  messages: Array<{ role: string; content: string }>;
  images: string[];
  solution?: string;
  answer_type?: string;
}

const readRows = async (file: string): Promise<Row[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);

const tags = (row: Row) => row.messages.reduce((n, m) => n + (m.content.split('<image>').length - 1), 0);

const env = () => ({
  ...process.env,
  PATH: `${fakeSwift}:${process.env.PATH ?? ''}`,
  PF_EXPORT_DIR: exportDir,
  PF_OUTPUT_ROOT: join(work, 'output'),
  CUDA_VISIBLE_DEVICES: '0,1,2,3,4,5,6,7',
});

/** The printed launch of node 0: working directory, environment, dataset files. */
function launchOf(stdout: string) {
  const cwd = /^cd (.+)$/m.exec(stdout)?.[1];
  const root = /^export ROOT_IMAGE_DIR=(.+)$/m.exec(stdout)?.[1];
  const datasets = /--dataset ((?:\S+\.jsonl ?)+)/.exec(stdout)?.[1]?.trim().split(' ') ?? [];
  return { cwd, root, datasets };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-trainer-contract-'));
  elsewhere = join(work, 'somewhere-else');
  await mkdir(elsewhere);
  // What `make run` writes (the offline quickstart, run once for every test file that reads it).
  await copySharedRun('quickstart', join(work, 'out/quickstart'));
  exportDir = join(work, 'out/quickstart/export');
}, 300_000);
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('rows as ms-swift trains on them', () => {
  it('has no empty message and exactly one <image> tag per image in every SFT and RL row', async () => {
    for (const file of ['sft/train.jsonl', 'sft/test.jsonl', 'rl/train.jsonl', 'rl/test.jsonl']) {
      for (const row of await readRows(join(exportDir, file))) {
        for (const message of row.messages) expect(message.content.trim(), `${file} ${row.id}`).not.toBe('');
        expect(tags(row), `${file} ${row.id}`).toBe(row.images.length);
      }
    }
  });

  it('gives a multiple-choice question one answer in SFT, RL and the Persona-MME eval set', async () => {
    const rl = new Map<string, string>();
    for (const row of [
      ...(await readRows(join(exportDir, 'rl/train.jsonl'))),
      ...(await readRows(join(exportDir, 'rl/test.jsonl'))),
    ]) {
      if (row.answer_type === 'mc') rl.set(`${row.user_id}|${row.id.split(':').at(-1)}`, row.solution ?? '');
    }
    let compared = 0;
    for (const row of await readRows(join(exportDir, 'sft/train.jsonl'))) {
      if (row.task !== 'reasoning') continue;
      const solution = rl.get(`${row.user_id}|${row.id.split(':').at(-1)}`);
      if (solution === undefined) continue;
      const answer = /<answer>([\s\S]*?)<\/answer>/.exec(row.messages.at(-1)?.content ?? '')?.[1];
      expect(answer, row.id).toBe(solution);
      expect(solution).toMatch(/^\([a-z]\)$/);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
    // The system prompt states the convention the rows follow.
    const first = (await readRows(join(exportDir, 'sft/train.jsonl'))).find((r) => r.task === 'reasoning');
    expect(first?.messages[0]?.content).toMatch(/the answer is the letter, e\.g\. <answer>\(b\)<\/answer>/);
  });

  it('has image-bearing RL rows: a question asked beside the photo that is its evidence, never one about the photo', async () => {
    const plans = (await readFile(join(work, 'out/quickstart/plan/plan.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    const qaOf = new Map<string, { task: string; evidence: string[] }>();
    for (const plan of plans) {
      const slots = new Map(
        plan.slots.map((slot: { id: string; imageId: string | null }) => [slot.id, slot.imageId]),
      );
      const paths = new Map(plan.images.map((image: { id: string; path: string }) => [image.id, image.path]));
      for (const qa of plan.qa)
        qaOf.set(`${plan.userId}|${qa.id}`, {
          task: qa.task,
          evidence: qa.evidenceSlotIds.flatMap((id: string) => {
            const imageId = slots.get(id) as string | null | undefined;
            return imageId ? [paths.get(imageId) as string] : [];
          }),
        });
    }
    const rows = [
      ...(await readRows(join(exportDir, 'rl/train.jsonl'))),
      ...(await readRows(join(exportDir, 'rl/test.jsonl'))),
    ];
    const withImages = rows.filter((row) => row.images.length > 0);
    expect(withImages.length).toBeGreaterThan(0);
    for (const row of withImages) {
      const qa = qaOf.get(`${row.user_id}|${row.id.split(':').at(-1)}`);
      expect(qa, row.id).toBeDefined();
      // The photo is the question's own evidence, and the question does not ask what is in it.
      expect(qa?.evidence.map((path) => `images/${path}`)).toContain(row.images[0]);
      expect(qa?.task, row.id).not.toBe('visual_detail_recall');
      expect(existsSync(join(exportDir, row.images[0] as string)), row.images[0]).toBe(true);
    }
  });
});

describe('the printed launch resolves every image, and preflight names a broken row', () => {
  it('sets ROOT_IMAGE_DIR to the export so images resolve from any working directory', async () => {
    const dry = await runCli(
      elsewhere,
      ['train', join(repoRoot, 'recipes/personavlm-sft.yaml'), '--dry-run'],
      env(),
    );
    const launch = launchOf(dry.stdout);
    expect(launch.cwd).toBe(elsewhere);
    expect(launch.root).toBe(exportDir);
    expect(launch.datasets).toContain(join(exportDir, 'sft/train.jsonl'));
    expect(dry.stdout).toMatch(
      /PASS dataset: .*sft\/train\.jsonl: \d+ rows; messages on every row; <image> tags match images; \d+ image references/,
    );
    let images = 0;
    for (const dataset of launch.datasets) {
      for (const row of await readRows(dataset)) {
        for (const image of row.images) {
          // vision_utils._check_path: as given (from the working directory), else under ROOT_IMAGE_DIR.
          const direct = isAbsolute(image) ? image : join(launch.cwd as string, image);
          const found = existsSync(direct) || existsSync(join(launch.root as string, image));
          expect(found, `${row.id}: ${image}`).toBe(true);
          images++;
        }
      }
    }
    expect(images).toBeGreaterThan(50);
    expect(dry.code).toBe(0);
  });

  it('fails, naming the file and the line, for a deleted image and for one tag too many', async () => {
    const sft = join(exportDir, 'sft/train.jsonl');
    const original = await readFile(sft, 'utf8');
    const rows = original.split('\n').filter((l) => l !== '');
    const line = rows.findIndex((l) => (JSON.parse(l) as Row).images.length > 0) + 1;
    const row = JSON.parse(rows[line - 1] as string) as Row;
    const image = row.images[0] as string;
    const bytes = await readFile(join(exportDir, image));
    try {
      await unlink(join(exportDir, image));
      const missing = await runCli(
        elsewhere,
        ['train', join(repoRoot, 'recipes/personavlm-sft.yaml'), '--dry-run'],
        env(),
      );
      expect(missing.code).toBe(1);
      expect(missing.stdout).toContain(`FAIL dataset:`);
      expect(missing.stdout).toMatch(
        new RegExp(`train\\.jsonl line ${line}\\b.*: image "${image}": .* does not exist`),
      );
    } finally {
      await writeFile(join(exportDir, image), bytes);
    }
    // One more tag than images on an appended copy of a text-only row.
    const plain = rows.map((l) => JSON.parse(l) as Row).find((r) => r.images.length === 0) as Row;
    const user = plain.messages.find((m) => m.role === 'user') as { content: string };
    user.content = `<image>${user.content}`;
    await appendFile(sft, `${JSON.stringify(plain)}\n`);
    try {
      const extra = await runCli(
        elsewhere,
        ['train', join(repoRoot, 'recipes/personavlm-sft.yaml'), '--dry-run'],
        env(),
      );
      expect(extra.code).toBe(1);
      expect(extra.stdout).toMatch(
        new RegExp(`train\\.jsonl line ${rows.length + 1}: 1 <image> tags for 0 images`),
      );
    } finally {
      await writeFile(sft, original);
    }
  });

  it("prints how to serve the trained checkpoint and the eval command of the recipe's eval block", async () => {
    const dry = await runCli(
      elsewhere,
      ['train', join(repoRoot, 'recipes/personavlm-grpo.yaml'), '--dry-run'],
      env(),
    );
    expect(dry.stdout).toMatch(
      /^swift deploy --model '\S+checkpoint-<last>' --infer_backend vllm --port 8001 --served_model_name 'personavlm-grpo-checkpoint-<last>'$/m,
    );
    expect(dry.stdout).toContain(
      `persona-forge eval ${join(exportDir, 'eval')} --out '${join(work, 'output/personavlm-grpo/eval/checkpoint-<last>')}' --llm-base-url http://127.0.0.1:8001/v1`,
    );
  });

  it('refuses a chain given in the wrong order or over two exports', async () => {
    const reversed = await runCli(
      elsewhere,
      [
        'train',
        'chain',
        join(repoRoot, 'recipes/personavlm-grpo.yaml'),
        join(repoRoot, 'recipes/personavlm-sft.yaml'),
        '--dry-run',
      ],
      env(),
    );
    expect(reversed.code).not.toBe(0);
    expect(reversed.stderr).toMatch(
      /takes the SFT recipe first and the RL recipe second; got personavlm-grpo \(stage grpo\)/,
    );
    const mixed = await runCli(
      elsewhere,
      [
        'train',
        'chain',
        join(repoRoot, 'recipes/personavlm-sft.yaml'),
        join(repoRoot, 'recipes/memlistener-dapo.yaml'),
        '--dry-run',
      ],
      { ...env(), PF_EXPORT_DIR: undefined },
    );
    expect(mixed.code).not.toBe(0);
    expect(mixed.stderr).toMatch(
      /reads the export .*out\/personavlm\/export but the RL recipe memlistener-dapo reads .*out\/persona-tree\/export/,
    );
  });
});
