import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TreeOp } from '../../schemas/memory.js';
import { compressValue } from './compress.js';
import { applyTreeOps, createPersonaTree, renderPersonaTree } from './persona-tree.js';
import {
  DEFAULT_TREE_SCHEMA_PATH,
  INSIDE_OUT_EXTENSIBLE,
  loadTreeSchema,
  parseTreeSchema,
} from './schema.js';

const NAME = '4_Identity_Characteristics.Social_Identity.Legal_and_Civic_Status.Name';
const FOOD = '5_Behavioral_Characteristics.Lifestyle.Self_Care';
const op = (kind: TreeOp['op'], path: string | null, value: string | null = null): TreeOp => ({
  op: kind,
  path,
  value,
});

describe('default schema', () => {
  it("is Inside Out's English tree as published, leaf for leaf, with extensible branches", () => {
    const schema = loadTreeSchema();
    const file = JSON.parse(readFileSync(DEFAULT_TREE_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
    const leaves: string[] = [];
    const walk = (node: Record<string, unknown>, prefix: string[]) => {
      for (const [key, value] of Object.entries(node))
        if (typeof value === 'string') leaves.push([...prefix, key].join('.'));
        else walk(value as Record<string, unknown>, [...prefix, key]);
    };
    walk(file, []);
    expect([...schema.leaves].sort()).toEqual(leaves.sort());
    expect([...schema.branches].filter((b) => !b.includes('.'))).toEqual(Object.keys(file));
    expect(schema.leaves.has(NAME)).toBe(true);
    expect([...schema.extensible].sort()).toEqual([...INSIDE_OUT_EXTENSIBLE].sort());
  });

  it('reads the Chinese tree as published too (its keys are not ASCII)', () => {
    const zh = loadTreeSchema(DEFAULT_TREE_SCHEMA_PATH.replace('_en.json', '_zh.json'));
    expect(zh.leaves.size).toBeGreaterThan(100);
    expect([...zh.branches].some((path) => /[^\x00-\x7f]/.test(path))).toBe(true);
  });

  it('rejects an extensible path that is not a branch', () => {
    expect(() => parseTreeSchema({ id: 'x', extensible: ['A.B'], tree: { A: { B: '' } } })).toThrow(
      /not a branch/,
    );
  });
});

describe('applyTreeOps', () => {
  const t0 = createPersonaTree();

  it.each([
    ['ADD on a schema leaf', [op('ADD', NAME, 'Ana')], 1, 0],
    ['ADD of a new leaf under an extensible branch', [op('ADD', `${FOOD}.coffee`, 'likes lattes')], 1, 0],
    ['ADD two levels below an extensible branch (depth 1 policy)', [op('ADD', `${FOOD}.a.b`, 'x')], 0, 1],
    [
      'ADD outside the schema',
      [op('ADD', '4_Identity_Characteristics.Social_Identity.Shoe_Size', 'x')],
      0,
      1,
    ],
    ['ADD to an unknown root', [op('ADD', 'Hacks.Root', 'x')], 0, 1],
    ['ADD on a branch', [op('ADD', FOOD, 'x')], 0, 1],
    ['UPDATE of an empty leaf', [op('UPDATE', NAME, 'Ana')], 0, 1],
    ['DELETE of an empty leaf', [op('DELETE', NAME)], 0, 1],
    ['DELETE with a value', [op('DELETE', NAME, 'x')], 0, 1],
    ['two ops on one path', [op('ADD', NAME, 'Ana'), op('ADD', NAME, 'Bo')], 1, 1],
    ['NO_OP', [op('NO_OP', null)], 1, 0],
    ['ADD with an empty value', [op('ADD', NAME, '  ')], 0, 1],
  ])('%s', (_title, ops, applied, rejected) => {
    const { step } = applyTreeOps(t0, ops);
    expect(step.applied).toHaveLength(applied);
    expect(step.rejected).toHaveLength(rejected);
    for (const rejection of step.rejected) expect(rejection.reason.length).toBeGreaterThan(0);
  });

  it('versions T_0…T_N with a diff per step and leaves earlier versions untouched', () => {
    const t1 = applyTreeOps(t0, [op('ADD', NAME, 'Ana'), op('ADD', `${FOOD}.coffee`, 'likes lattes')]).tree;
    const t2 = applyTreeOps(t1, [op('UPDATE', `${FOOD}.coffee`, 'likes americano (earlier: lattes)')]).tree;
    const t3 = applyTreeOps(t2, [op('DELETE', `${FOOD}.coffee`)]).tree;
    expect([t0.version, t1.version, t2.version, t3.version]).toEqual([0, 1, 2, 3]);
    expect(t1.values[`${FOOD}.coffee`]).toBe('likes lattes');
    expect(t3.values[`${FOOD}.coffee`]).toBeUndefined();
    expect(t3.extendedLeaves.has(`${FOOD}.coffee`)).toBe(false);
    expect(t3.history.map((s) => s.diff)).toEqual([
      [
        { path: NAME, before: null, after: 'Ana' },
        { path: `${FOOD}.coffee`, before: null, after: 'likes lattes' },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
      [{ path: `${FOOD}.coffee`, before: 'likes lattes', after: 'likes americano (earlier: lattes)' }],
      [{ path: `${FOOD}.coffee`, before: 'likes americano (earlier: lattes)', after: null }],
    ]);
    expect(Object.keys(t0.values)).toEqual([]);
  });

  it('at maxExtensionDepth 2 a leaf and a child under it are never both added: render keeps every value', () => {
    const deep = { maxExtensionDepth: 2 };
    for (const ops of [
      [op('ADD', `${FOOD}.coffee`, 'likes lattes'), op('ADD', `${FOOD}.coffee.brand`, 'Lavazza')],
      [op('ADD', `${FOOD}.coffee.brand`, 'Lavazza'), op('ADD', `${FOOD}.coffee`, 'likes lattes')],
    ]) {
      // In one step and in two steps.
      const together = applyTreeOps(t0, ops, deep);
      const apart = applyTreeOps(applyTreeOps(t0, [ops[0] as TreeOp], deep).tree, [ops[1] as TreeOp], deep);
      for (const { tree, step } of [together, apart]) {
        expect(step.rejected.map((r) => r.reason)).toEqual([
          expect.stringMatching(/a leaf cannot have children|a branch cannot hold a value/),
        ]);
        const rendered = JSON.stringify(renderPersonaTree(tree, { onlyFilled: true }));
        for (const value of Object.values(tree.values)) expect(rendered).toContain(JSON.stringify(value));
      }
    }
    // Two levels below the branch, beside other leaves, is still allowed.
    const { step } = applyTreeOps(
      t0,
      [op('ADD', `${FOOD}.coffee.brand`, 'Lavazza'), op('ADD', `${FOOD}.coffee.roast`, 'dark')],
      deep,
    );
    expect(step.applied).toHaveLength(2);
  });

  it('compresses overlong values to the leaf budget deterministically', () => {
    const long = 'likes long walks by the river. '.repeat(30);
    const { tree, step } = applyTreeOps(createPersonaTree({ policy: { leafMaxChars: 40 } }), [
      op('ADD', NAME, long),
    ]);
    const value = tree.values[NAME] as string;
    expect(value.length).toBeLessThanOrEqual(40);
    expect(step.compressed).toEqual([{ path: NAME, length: long.trim().length }]);
    expect(compressValue(long, 40)).toBe(value);
  });

  it('refuses extended ADD when the policy disables it', () => {
    const { step } = applyTreeOps(t0, [op('ADD', `${FOOD}.tea`, 'x')], { allowExtendedAdd: false });
    expect(step.rejected[0]?.reason).toMatch(/extended ADD is disabled/);
  });

  it('renders the filled tree as nested JSON', () => {
    const t1 = applyTreeOps(t0, [op('ADD', `${FOOD}.tea`, 'likes jasmine tea')]).tree;
    expect(renderPersonaTree(t1, { onlyFilled: true })).toEqual({
      '5_Behavioral_Characteristics': { Lifestyle: { Self_Care: { tea: 'likes jasmine tea' } } },
    });
  });
});
