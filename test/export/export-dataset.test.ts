import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type ExportSummary, exportDataset, listFiles, PERSONAMEM_COLUMNS } from '../../src/export/index.js';
import { exportConfig, exportedFixtureRun, jsonLines } from './exported-fixture.js';

let root: string;
let runDir: string;
let summary: ExportSummary;
const config = exportConfig;
const lines = jsonLines;

/** Minimal RFC 4180 parser for the test (quoted fields, doubled quotes, embedded commas/newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  return rows;
}

beforeAll(async () => {
  ({ root, runDir, summary } = await exportedFixtureRun());
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('exportDataset', () => {
  it('leaves quarantined users out and splits by persona', async () => {
    expect(summary.excluded).toBe(1);
    expect(summary.users).toEqual({ train: 6, test: 2 });
    const usersOf = async (path: string) => new Set((await lines(path)).map((row) => row.user_id as string));
    for (const kind of ['sft', 'rl']) {
      const train = await usersOf(join(runDir, 'export', kind, 'train.jsonl'));
      const test = await usersOf(join(runDir, 'export', kind, 'test.jsonl'));
      expect([...train].filter((user) => test.has(user))).toEqual([]);
      expect(train.has('user-0002') || test.has('user-0002')).toBe(false);
      expect(test).toEqual(new Set(['user-0003', 'user-0007']));
    }
  });

  it('writes parquet that hyparquet reads back equal to the jsonl', async () => {
    for (const kind of ['sft', 'rl']) {
      for (const split of ['train', 'test']) {
        const expected = await lines(join(runDir, 'export', kind, `${split}.jsonl`));
        const bytes = await readFile(join(runDir, 'export', kind, `${split}.parquet`));
        const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        const actual = await parquetReadObjects({ file, utf8: false });
        expect(actual.length).toBeGreaterThan(0);
        // Parquet `images` are the Image feature ({bytes, path}); the jsonl keeps the paths.
        expect(
          actual.map((row) => ({ ...row, images: row.images.map((image: { path: string }) => image.path) })),
        ).toEqual(expected);
        for (const image of actual.flatMap(
          (row) => row.images as Array<{ bytes?: Uint8Array; path: string }>,
        )) {
          const copy = join(runDir, 'export', image.path);
          if (existsSync(copy))
            expect(Buffer.from(image.bytes as Uint8Array).equals(await readFile(copy))).toBe(true);
          else expect(image.bytes ?? null).toBeNull();
        }
      }
    }
  });

  it('mixes SFT tasks by the configured ratio and keeps ms-swift rows well formed', async () => {
    const rows = await lines(join(runDir, 'export', 'sft', 'train.jsonl'));
    const byTask = summary.sft.train;
    // 6 users × 5 trajectories = 30 reasoning; 18 of each memory task → reasoning binds the mix.
    expect(byTask.reasoning).toBe(summary.candidates.sft.train.reasoning);
    expect(byTask.personality_inference! / byTask.reasoning!).toBeCloseTo(0.103 / 0.436, 1);
    expect(byTask.tree_ops).toBeUndefined();
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['id', 'user_id', 'task', 'messages', 'images']);
      const placeholders = row.messages
        .map((m: { content: string }) => m.content.split('<image>').length - 1)
        .reduce((a: number, b: number) => a + b, 0);
      expect(placeholders).toBe(row.images.length);
      expect(row.messages.at(-1).role).toBe('assistant');
    }
    const reasoning = rows.find((row) => row.task === 'reasoning');
    expect(reasoning.messages.map((m: { role: string }) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(rows.some((row) => row.images.length > 0)).toBe(true);
  });

  it('writes RL rows with reward columns, SPEC mix and no future memory', async () => {
    const rows = await lines(join(runDir, 'export', 'rl', 'train.jsonl'));
    for (const row of rows) {
      expect(row.messages.at(-1).role).toBe('user');
      expect(['open', 'mc', 'binary']).toContain(row.answer_type);
      if (row.answer_type === 'mc') {
        expect(row.choices).toHaveLength(4);
        expect(row.solution).toMatch(/^\([a-d]\)$/);
      }
      if (row.memory_snapshot !== '') {
        const snapshot = JSON.parse(row.memory_snapshot);
        expect(snapshot.time.slice(0, 16).replace('T', ' ') <= row.question_time).toBe(true);
      }
    }
    const counts = summary.rl.train;
    expect(counts.mc! / (counts.mc! + counts.open! + counts.binary!)).toBeCloseTo(0.556, 1);
  });

  it('writes the PersonaMem CSV with exactly the published columns', async () => {
    const rows = parseCsv(
      await readFile(join(runDir, 'export', 'eval', 'personamem', 'questions.csv'), 'utf8'),
    );
    expect(rows[0]).toEqual([...PERSONAMEM_COLUMNS]);
    expect(rows.length - 1).toBe(8);
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(PERSONAMEM_COLUMNS.length);
      const record = Object.fromEntries(PERSONAMEM_COLUMNS.map((column, i) => [column, row[i]!]));
      expect(record.correct_answer).toMatch(/^\([a-d]\)$/);
      expect(record.all_options).toMatch(/^\['\(a\) .*', '\(b\) .*', '\(c\) .*', '\(d\) .*'\]$/);
      expect(record.distance_to_ref_proportion_in_context).toMatch(/^\d+\.\d\d%$/);
      expect(Number(record.end_index_in_shared_context)).toBeGreaterThan(1);
      // The published kinds (questions_32k.csv): an integer persona id, a UUID per question.
      expect(record.persona_id).toMatch(/^\d+$/);
      expect(record.question_id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    const contexts = await lines(join(runDir, 'export', 'eval', 'personamem', 'shared_contexts.jsonl'));
    expect(contexts).toHaveLength(8);
  });

  it('writes Persona-MME questions and user_data.json', async () => {
    const dir = join(runDir, 'export', 'eval', 'persona-mme');
    const questions = JSON.parse(await readFile(join(dir, 'Persona-MME.json'), 'utf8'));
    // One primary case per user; personality alignment rides on it (no standalone yes/no item).
    expect(questions).toHaveLength(8);
    const mc = questions.find(
      (q: { question_type: string }) => q.question_type === 'Latest Preference Recognition',
    );
    expect(mc).toMatchObject({
      type: 'Preference Recognition',
      answer: '(a)',
      data_path: './samples/user-0000/user_data.json',
    });
    expect(Object.keys(mc.choices)).toEqual(['(a)', '(b)', '(c)', '(d)']);
    expect(mc.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(mc.alignment).toEqual({
      chosen: 'suggesting something unconventional I have never tried',
      rejected: 'sticking to familiar, proven options',
    });
    const data = JSON.parse(await readFile(join(dir, 'samples', 'user-0000', 'user_data.json'), 'utf8'));
    expect(data.sessions).toHaveLength(3);
    expect(data.sessions[0][0]).toEqual({
      time: '2024-03-01 09:00',
      user: expect.any(String),
      assistant: expect.any(String),
    });
    expect(data.sessions[1][0].user.startsWith('<img>')).toBe(true);
    expect(data.imgs).toEqual(['images/builtin/cat-0.png']);
  });

  it('writes LoCoMo-shaped conversations with evidence dia_ids and categories', async () => {
    const samples = JSON.parse(await readFile(join(runDir, 'export', 'eval', 'locomo.json'), 'utf8'));
    expect(samples).toHaveLength(8);
    const sample = samples[0];
    // LoCoMo's kinds: `conv-<n>` ids (mapped back to users beside it) and its key order.
    expect(sample.sample_id).toBe('conv-1');
    expect(
      JSON.parse(await readFile(join(runDir, 'export', 'eval', 'locomo-users.json'), 'utf8'))['conv-1'],
    ).toBe('user-0000');
    expect(Object.keys(sample)).toEqual([
      'qa',
      'conversation',
      'event_summary',
      'observation',
      'session_summary',
      'sample_id',
    ]);
    expect(sample.observation.session_1_observation[sample.conversation.speaker_a][0]).toEqual([
      expect.any(String),
      'D1:1',
    ]);
    expect(sample.session_summary.session_1_summary).toMatch(
      /had a conversation at 9:00 am on 1 March, 2024/,
    );
    expect(sample.event_summary.events_session_1.date).toBe('1 March, 2024');
    expect(sample.conversation.session_1_date_time).toBe('9:00 am on 1 March, 2024');
    expect(sample.conversation.session_1[0]).toMatchObject({
      dia_id: 'D1:1',
      speaker: sample.conversation.speaker_a,
    });
    expect(sample.conversation.session_2[0]).toMatchObject({
      img_url: ['images/builtin/cat-0.png'],
      blip_caption: 'a grey cat on a sofa',
    });
    expect(sample.qa).toEqual([
      { question: expect.any(String), answer: expect.any(String), evidence: ['D1:1'], category: 4 },
      { question: expect.any(String), answer: 'No', evidence: ['D1:1'], category: 3 },
      { question: expect.any(String), evidence: [], category: 5, adversarial_answer: 'unknown' },
    ]);
  });

  it('writes a dataset card whose front matter parses with the right splits and counts', async () => {
    const card = await readFile(join(runDir, 'export', 'README.md'), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n/.exec(card);
    const front = parseYaml(match![1]!);
    expect(front.license).toBe('apache-2.0');
    expect(front.configs).toEqual([
      {
        config_name: 'sft',
        // load_dataset(repo) with no config name loads sft.
        default: true,
        data_files: [
          { split: 'train', path: 'sft/train.parquet' },
          { split: 'test', path: 'sft/test.parquet' },
        ],
      },
      {
        config_name: 'rl',
        data_files: [
          { split: 'train', path: 'rl/train.parquet' },
          { split: 'test', path: 'rl/test.parquet' },
        ],
      },
    ]);
    for (const info of front.dataset_info) {
      for (const split of info.splits) {
        const count = (await lines(join(runDir, 'export', info.config_name, `${split.name}.jsonl`))).length;
        expect(split.num_examples).toBe(count);
      }
    }
    expect(front.persona_forge.offline).toEqual({ realizer: true, memory: true, judges: true });
    expect(front.tags).toContain('offline-generated');
    expect(card).toContain('offline template realizer');
  });

  it('is byte-identical when run again with the same seed', async () => {
    const again = join(root, 'again');
    await exportDataset(runDir, { config, seed: 42, outDir: again, generation: { pipeline: 'test' } });
    const first = await listFiles(join(runDir, 'export'));
    expect(await listFiles(again)).toEqual(first);
    for (const file of first) {
      expect(await readFile(join(again, file.path)), file.path).toEqual(
        await readFile(join(runDir, 'export', file.path)),
      );
    }
  });
});

describe('images', () => {
  it('copies the referenced pool images into the export so image paths resolve inside it', async () => {
    expect(summary.images).toEqual({ copied: 1, missing: [] });
    expect(await readFile(join(runDir, 'export', 'images', 'builtin', 'cat-0.png'), 'utf8')).toBe(
      'png bytes',
    );
    const rows = await lines(join(runDir, 'export', 'sft', 'train.jsonl'));
    for (const path of rows.flatMap((row) => row.images as string[])) {
      expect(await readFile(join(runDir, 'export', path), 'utf8')).toBe('png bytes');
    }
  });
});

describe('dataset card', () => {
  it('uses no YAML anchors or aliases (the Hub reads plain YAML)', async () => {
    const card = await readFile(join(runDir, 'export', 'README.md'), 'utf8');
    const front = /^---\n([\s\S]*?)\n---\n/.exec(card)![1]!;
    expect(front).not.toMatch(/[&*]a\d/);
  });
});
