import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { closestKey } from './closest-key.js';
import { configJsonSchema } from './config-json-schema.js';
import { loadPipeline } from './load-pipeline.js';
import { loadYamlConfig } from './load-yaml-config.js';
import { writeJsonSchemas } from './write-json-schemas.js';

const Schema = z
  .object({
    name: z.string(),
    plan: z
      .object({
        sessions: z
          .object({ turns: z.object({ min: z.number().int().min(1), max: z.number().int() }).strict() })
          .strict(),
      })
      .strict(),
    tags: z.array(z.string()).default([]),
    url: z.string().optional(),
    enabled: z.boolean().default(false),
  })
  .strict();

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function configError(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadYamlConfig', () => {
  it('names the file, the YAML path, the bad value and the fix for an out-of-range number', async () => {
    const file = await put('p.yaml', 'name: x\nplan:\n  sessions:\n    turns: { min: 0, max: 4 }\n');
    const error = await configError(loadYamlConfig(file, Schema));
    expect(error.file).toBe(file);
    expect(error.issues[0]).toMatchObject({ path: 'plan.sessions.turns.min', value: 0 });
    expect(error.issues[0]?.message).toContain('fix: use a value >= 1');
    expect(error.issues[0]?.message).toContain('(line 4)');
    expect(error.message).toContain(file);
    expect(error.message).toContain('plan.sessions.turns.min');
  });

  it('suggests the closest valid key for an unknown key', async () => {
    const file = await put('p.yaml', 'name: x\nplan:\n  sessions:\n    turns: { min: 1, max: 4, mx: 3 }\n');
    const error = await configError(loadYamlConfig(file, Schema));
    expect(error.issues[0]).toMatchObject({ path: 'plan.sessions.turns.mx', value: 3 });
    expect(error.issues[0]?.message).toContain('did you mean "max"?');
  });

  it('interpolates ${VAR} and ${VAR:-default}, coercing whole plain scalars', async () => {
    const file = await put(
      'p.yaml',
      'name: "${NAME}-run"\nurl: http://${HOST:-localhost}:8000/v1\nenabled: ${ON}\nplan:\n  sessions:\n    turns:\n      min: ${MIN:-2}\n      max: 9\ntags: ["$${literal}"]\n',
    );
    const { config, resolvedHash } = await loadYamlConfig(file, Schema, {
      env: { NAME: 'demo', ON: 'true' },
    });
    expect(config).toEqual({
      name: 'demo-run',
      url: 'http://localhost:8000/v1',
      enabled: true,
      plan: { sessions: { turns: { min: 2, max: 9 } } },
      tags: ['${literal}'],
    });
    expect(resolvedHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports an unset variable with no default by file, path and variable', async () => {
    const file = await put('p.yaml', 'name: x\nurl: ${PF_TEST_UNSET_HOST}\n');
    const error = await configError(loadYamlConfig(file, Schema, { env: {} }));
    expect(error.issues[0]?.path).toBe('url');
    expect(error.issues[0]?.message).toContain('PF_TEST_UNSET_HOST');
  });

  it('deep-merges extends chains: maps merge, arrays replace', async () => {
    await put('base.yaml', 'name: base\ntags: [a, b]\nplan:\n  sessions:\n    turns: { min: 1, max: 4 }\n');
    await put('mid.yaml', 'extends: ./base.yaml\nplan:\n  sessions:\n    turns: { max: 8 }\n');
    const file = await put('top.yaml', 'extends: mid.yaml\ntags: [c]\n');
    const { config } = await loadYamlConfig(file, Schema, { overrides: { name: 'flag' } });
    expect(config).toMatchObject({
      name: 'flag',
      tags: ['c'],
      plan: { sessions: { turns: { min: 1, max: 8 } } },
    });
  });

  it('says which file of an extends chain set a bad value', async () => {
    const base = await put(
      'base.yaml',
      'name: base\nplan:\n  sessions:\n    turns:\n      min: -3\n      max: 4\n',
    );
    const file = await put('top.yaml', 'extends: base.yaml\ntags: [c]\n');
    const error = await configError(loadYamlConfig(file, Schema));
    expect(error.file).toBe(file);
    expect(error.issues[0]?.path).toBe('plan.sessions.turns.min');
    expect(error.issues[0]?.message).toContain(`set in ${base} line 5`);
  });

  it('rejects an extends cycle', async () => {
    await put('a.yaml', 'extends: b.yaml\nname: a\n');
    const file = await put('b.yaml', 'extends: a.yaml\nname: b\n');
    const error = await configError(loadYamlConfig(file, Schema));
    expect(error.issues[0]?.message).toContain('extends cycle');
  });

  it('reports YAML syntax errors with a line number', async () => {
    const file = await put('p.yaml', 'name: x\nplan: [unclosed\n');
    const error = await configError(loadYamlConfig(file, Schema));
    expect(error.issues[0]?.message).toMatch(/line \d+/);
  });
});

describe('loadPipeline', () => {
  it('names file, path and fix for a malformed pipeline', async () => {
    const file = await put(
      'pipeline.yaml',
      'name: demo\nstages: [plan]\nllm:\n  endpoints:\n    main: { baseUrl: "http://127.0.0.1:1/v1", model: m, maxConcurency: 4 }\n  roles: { judge: main }\n',
    );
    const error = await configError(loadPipeline(file, { env: {} }));
    expect(error.file).toBe(file);
    expect(error.issues[0]?.path).toBe('llm.endpoints.main.maxConcurency');
    expect(error.issues[0]?.message).toContain('did you mean "maxConcurrency"?');
  });

  it('rejects an unknown stage with the allowed values', async () => {
    const file = await put('pipeline.yaml', 'name: demo\nstages: [plan, synthesize]\n');
    const error = await configError(loadPipeline(file, { env: {} }));
    expect(error.issues[0]).toMatchObject({ path: 'stages.1', value: 'synthesize' });
    expect(error.issues[0]?.message).toContain('"synth"');
  });

  it('loads a valid pipeline with defaults filled', async () => {
    const file = await put('pipeline.yaml', 'name: demo\nstages: [plan]\n');
    const { config } = await loadPipeline(file, { env: {} });
    expect(config.seed).toBe(42);
    expect(config.llm.cache.enabled).toBe(true);
  });
});

describe('writeJsonSchemas', () => {
  it('writes an input JSON Schema per name', async () => {
    const [file] = await writeJsonSchemas(dir, { 'demo.schema.json': configJsonSchema('demo', Schema) });
    const written = JSON.parse(await readFile(file as string, 'utf8'));
    expect(written.title).toBe('demo');
    // Required only when the file does not `extends:` a base that may set them.
    expect(written.required).toBeUndefined();
    expect(written.$defs.complete.required).toEqual(['name', 'plan']);
    expect(written.properties.enabled.default).toBe(false);
  });
});

it.each([
  ['maxConcurency', ['maxConcurrency', 'model'], 'maxConcurrency'],
  ['zzzzzz', ['model', 'baseUrl'], undefined],
])('closestKey(%s) → %s', (word, candidates, expected) => {
  expect(closestKey(word, candidates)).toBe(expected);
});
