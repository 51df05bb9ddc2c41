import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

/** Hostile text at the input boundaries, through the shipped binary: normalised or refused by name, never passed on. */
const repoRoot = resolve(import.meta.dirname, '../..');
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-boundaries-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A pipeline reading personas from `file` with a name column. */
async function pipelineFor(file: string): Promise<string> {
  const pipeline = join(work, `${file.split('/').pop()}.yaml`);
  await writeFile(
    pipeline,
    [
      `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}`,
      'personas:',
      '  source: file',
      '  train: 2',
      '  test: 1',
      `  file: { path: ${JSON.stringify(file)}, mapping: { description: persona, name: name } }`,
    ].join('\n'),
  );
  return pipeline;
}

const persona = (name: string, description: string) => JSON.stringify({ name, persona: description });
const DESCRIPTIONS = [
  'A retired nurse in Lyon who loves gardening',
  'A software engineer in Toronto who plays chess',
  'A baker in Madrid who runs marathons',
];

describe('persona strings at the persona boundary', () => {
  it('a newline or tab in a name becomes a space: the profile block keeps one line per field, no control character reaches SFT', async () => {
    const file = join(work, 'newline.jsonl');
    await writeFile(
      file,
      `${[
        persona('Ana\nMaria Lopez', DESCRIPTIONS[0] as string),
        persona('Tom\tKeller', `${DESCRIPTIONS[1]}\r\nand\u2028jogs`),
        persona('Li Wei', DESCRIPTIONS[2] as string),
      ].join('\n')}\n`,
    );
    const out = join(work, 'newline-run');
    const result = await runCli(work, ['run', await pipelineFor(file), '--out', out, '--quiet']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const plans = (await readFile(join(out, 'plan/plan.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const names = plans.map((plan) => plan.enriched.persona.name).sort();
    expect(names).toEqual(['Ana Maria Lopez', 'Li Wei', 'Tom Keller']);
    for (const plan of plans) expect(plan.enriched.persona.description).not.toMatch(/[\n\r\t\u2028]/);
    const sft = await readFile(join(out, 'export/sft/train.jsonl'), 'utf8');
    expect(sft).not.toMatch(/\\u0000|\\u202e|\u202e|\\t/i);
    for (const line of sft.trim().split('\n')) {
      const system = JSON.parse(line).messages[0].content as string;
      const name = /^name: (.*)$/m.exec(system)?.[1];
      if (name !== undefined) expect(names).toContain(name);
    }
  }, 120_000);

  it.each([
    ['NUL in a description', persona('Ana Lopez', 'A nurse\u0000 in Lyon'), 'persona', /U\+0000 \(NUL\)/],
    [
      'a right-to-left override in a name',
      persona('Ana \u202eLopez', 'A nurse in Lyon'),
      'name',
      /U\+202E \(RIGHT-TO-LEFT OVERRIDE\)/,
    ],
    [
      'an escape sequence in a name',
      persona('Ana \u001b[31mLopez', 'A nurse in Lyon'),
      'name',
      /U\+001B \(ESCAPE\)/,
    ],
  ])(
    '%s is INPUT_INVALID naming the file, line and field; nothing is written',
    async (_title, bad, field, char) => {
      const file = join(work, `bad-${field}-${bad.length}.jsonl`);
      await writeFile(
        file,
        `${[persona('Li Wei', DESCRIPTIONS[2] as string), bad, persona('Tom Keller', DESCRIPTIONS[1] as string)].join('\n')}\n`,
      );
      const out = join(work, `bad-run-${field}-${bad.length}`);
      const result = await runCli(work, ['run', await pipelineFor(file), '--out', out, '--quiet']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `INPUT_INVALID\\]: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(${field}\\): line 2: field "${field}" holds `,
        ),
      );
      expect(result.stderr).toMatch(char);
      await expect(readFile(join(out, 'plan/plan.jsonl'))).rejects.toThrow();
    },
    60_000,
  );
});

describe('LoCoMo host input errors carry a code', () => {
  beforeAll(async () => {
    const plan = await runCli(work, [
      'plan',
      join(repoRoot, 'pipelines/quickstart.yaml'),
      '--out',
      join(work, 'interpolate-users'),
      '--quiet',
    ]);
    expect(plan.code).toBe(0);
  }, 60_000);

  it.each([
    ['a host that is not JSON', 'not json {', /INPUT_INVALID\]: .*host\.json: not valid JSON/],
    [
      'a record without a conversation',
      '[{"sample_id": "x", "qa": []}]',
      /INPUT_INVALID\]: locomo host conversation 0: record has no "conversation" object/,
    ],
    [
      'a list of numbers',
      '[1, 2]',
      /INPUT_INVALID\]: locomo host conversation 0: record has no "conversation" object/,
    ],
  ])('%s', async (_title, text, message) => {
    const reference = join(work, 'interpolate-users');
    const host = join(work, 'host.json');
    await writeFile(host, text);
    const result = await runCli(work, [
      'interpolate',
      '--host',
      host,
      '--format',
      'locomo',
      '--sessions',
      reference,
      '--out',
      join(work, 'merged.json'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/--debug for the stack trace/);
  });
});
