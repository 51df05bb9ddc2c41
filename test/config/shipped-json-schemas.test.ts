import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadPipeline, loadYamlConfig, shippedJsonSchemas } from '../../src/config/index.js';
import { loadRewardConfig } from '../../src/reward/load-config.js';
import { Recipe } from '../../src/schemas/recipe.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)\n/;

/** Every shipped YAML config file and the schema its folder calls for. */
async function shippedYaml(): Promise<Array<{ file: string; expected: string }>> {
  const out: Array<{ file: string; expected: string }> = [];
  const folders: Array<[string, (name: string) => string]> = [
    ['pipelines', () => 'pipeline.schema.json'],
    ['recipes', (name) => (name.startsWith('_') ? 'recipe-base.schema.json' : 'recipe.schema.json')],
    ['configs', () => 'rewards.schema.json'],
  ];
  for (const [folder, expected] of folders) {
    for (const name of (await readdir(join(ROOT, folder))).sort()) {
      if (name.endsWith('.yaml')) out.push({ file: `${folder}/${name}`, expected: expected(name) });
    }
  }
  return out;
}

function ajvFor(schema: object) {
  // strictRequired off: `if: { not: { required: ['extends'] } }` names a property the `if` does not define.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

/** Dotted paths of the properties (at any depth) that carry no description. */
function undescribed(node: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      undescribed(item, `${path}[${i}]`, out);
    });
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties') {
        for (const [name, property] of Object.entries(value as Record<string, { description?: string }>)) {
          if (typeof property.description !== 'string' || property.description.trim() === '')
            out.push(`${path}.${name}`);
        }
      }
      if (key !== 'enum' && key !== 'const' && key !== 'default') undescribed(value, `${path}.${key}`, out);
    }
  }
  return out;
}

describe('shipped JSON Schemas (schemas/)', () => {
  const generated = shippedJsonSchemas();

  it('are exactly what `persona-forge schema` generates from the zod schemas (run it with --out schemas after a schema change)', async () => {
    const shipped = (await readdir(join(ROOT, 'schemas'))).sort();
    expect(shipped).toEqual(Object.keys(generated).sort());
    for (const [name, schema] of Object.entries(generated)) {
      expect(await readFile(join(ROOT, 'schemas', name), 'utf8'), name).toBe(
        `${JSON.stringify(schema, null, 2)}\n`,
      );
    }
  });

  it('describe every property', () => {
    for (const [name, schema] of Object.entries(generated)) {
      expect(undescribed(schema, name, []), `${name}: properties without a description`).toEqual([]);
    }
  });

  it('accept `${VAR}` where the loader does and refuse typos and wrong values', () => {
    const validate = ajvFor(generated['pipeline.schema.json'] as object);
    expect(validate({ name: 'x', stages: ['plan'], concurrency: '${CONCURRENCY:-8}' })).toBe(true);
    expect(validate({ name: 'x', stages: ['plan'], concurrency: 'eight' })).toBe(false);
    expect(validate({ name: 'x', stages: ['plan'], personas: { trian: 4 } })).toBe(false);
    expect(validate({ stages: ['plan'] })).toBe(false); // name is required …
    expect(validate({ extends: './base.yaml', stages: ['plan'] })).toBe(true); // … unless a base may set it
    const base = ajvFor(generated['recipe-base.schema.json'] as object);
    expect(base({ model: { torchDtype: 'bfloat16' } })).toBe(true);
    expect(base({ model: { torchDtype: 'bf16' } })).toBe(false);
  });
});

describe('shipped YAML files', async () => {
  const files = await shippedYaml();

  it.each(files)(
    '$file names its schema on line 1 and validates against it as written',
    async ({ file, expected }) => {
      const text = await readFile(join(ROOT, file), 'utf8');
      const line = SCHEMA_LINE.exec(text);
      expect(line?.[1], `${file}: first line`).toBe(`../schemas/${expected}`);
      const schema = JSON.parse(await readFile(resolve(ROOT, file, '..', line?.[1] as string), 'utf8'));
      const validate = ajvFor(schema);
      const valid = validate(parse(text));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(valid).toBe(true);
    },
  );

  it('still load with the schema line (a YAML comment)', async () => {
    for (const { file } of files) {
      const path = join(ROOT, file);
      if (file.startsWith('pipelines/'))
        expect((await loadPipeline(path, { env: {} })).config.name).toBeTruthy();
      else if (file.startsWith('recipes/') && !file.includes('/_'))
        expect((await loadYamlConfig(path, Recipe, { env: {} })).config.name).toBeTruthy();
      else if (file.startsWith('configs/'))
        expect((await loadRewardConfig(path, { env: {} })).server).toBeTruthy();
    }
  });
});
