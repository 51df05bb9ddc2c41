import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../..');
const bin = join(repoRoot, 'bin/persona-forge.js');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      cwd: dir,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('persona-forge CLI', () => {
  it('rejects a malformed pipeline with the file, the YAML path and a fix, and no stack trace', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      'name: bad\nstages: [plan, synth]\npersonas:\n  source: builtin\n  trian: 5\nplan:\n  sessionGapMinutes: -3\n',
    );
    const result = await cli(['run', file, '--out', join(dir, 'out')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain('personas.trian');
    expect(result.stderr).toMatch(/did you mean "train"/);
    expect(result.stderr).toContain('plan.sessionGapMinutes');
    expect(result.stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  });

  it('runs the plan stage and prints a user timeline', async () => {
    const file = join(dir, 'tiny.yaml');
    await writeFile(
      file,
      `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\nname: tiny\npersonas:\n  train: 2\n  test: 1\n`,
    );
    const out = join(dir, 'tiny');
    const planned = await cli(['plan', file, '--out', out, '--quiet']);
    expect(planned.code).toBe(0);
    const first = JSON.parse((await readFile(join(out, 'plan/plan.jsonl'), 'utf8')).split('\n')[0] as string);
    const inspect = await cli(['inspect', 'plan', out, '--user', first.userId]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain(first.userId);
    expect(inspect.stdout).toContain(first.enriched.persona.name);
    const missing = await cli(['inspect', 'plan', out, '--user', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(first.userId);
  });

  it('writes JSON Schemas for pipeline and recipe files', async () => {
    const result = await cli(['schema', '--out', join(dir, 'schemas')]);
    expect(result.code).toBe(0);
    const schema = JSON.parse(await readFile(join(dir, 'schemas/pipeline.schema.json'), 'utf8'));
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['stages', 'personas', 'plan', 'llm']),
    );
    const recipe = JSON.parse(await readFile(join(dir, 'schemas/recipe.schema.json'), 'utf8'));
    expect(recipe.type).toBe('object');
    // What it writes is what ships in schemas/ (the files the shipped YAML names on line 1).
    for (const name of ['pipeline', 'recipe', 'recipe-base', 'rewards']) {
      expect(await readFile(join(dir, `schemas/${name}.schema.json`), 'utf8')).toBe(
        await readFile(join(repoRoot, `schemas/${name}.schema.json`), 'utf8'),
      );
    }
  });
});
