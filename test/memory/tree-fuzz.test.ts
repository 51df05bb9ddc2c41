import { describe, expect, it } from 'vitest';
import {
  applyTreeOps,
  createPersonaTree,
  formatTreeOp,
  loadTreeSchema,
  parseTreeOps,
} from '../../src/memory/index.js';
import type { TreeOp } from '../../src/schemas/memory.js';
import { createRng } from '../../src/util/rng.js';

const LINES = 100_000;
const ALPHABET = 'ADDUPTELNO_()",. \\\'abcxyz019\tNone\n→中"';

describe('PersonaTree fuzz', () => {
  it(`survives ${LINES.toLocaleString()} random and mutated op lines without writing outside permitted paths`, () => {
    const rng = createRng(7, 'tree-fuzz');
    const schema = loadTreeSchema();
    const leaves = [...schema.leaves];
    const extensible = [...schema.extensible];
    const branches = [...schema.branches];
    const randomPath = (): string => {
      const roll = rng.int(0, 5);
      if (roll === 0) return rng.pick(leaves);
      if (roll === 1) return `${rng.pick(extensible)}.k${rng.int(0, 20)}`;
      if (roll === 2) return `${rng.pick(extensible)}.k${rng.int(0, 3)}.deep`;
      if (roll === 3) return rng.pick(branches);
      if (roll === 4) return `${rng.pick(leaves)}.child`;
      return `Root${rng.int(0, 3)}.x_${rng.int(0, 9)}`;
    };
    const randomOp = (): TreeOp => {
      const kind = rng.pick(['ADD', 'UPDATE', 'DELETE', 'NO_OP'] as const);
      if (kind === 'NO_OP') return { op: kind, path: null, value: null };
      if (kind === 'DELETE') return { op: kind, path: randomPath(), value: null };
      const words = Array.from({ length: rng.int(1, 60) }, () =>
        rng.pick(['likes', 'tea', '"q"', 'a\\b', 'x,y', '()']),
      );
      return { op: kind, path: randomPath(), value: words.join(' ') };
    };
    const mutate = (line: string): string => {
      const chars = [...line];
      const edits = rng.int(1, 3);
      for (let e = 0; e < edits; e++) {
        const at = rng.int(0, Math.max(0, chars.length - 1));
        const roll = rng.int(0, 4);
        if (roll === 0) chars.splice(at, 1);
        else if (roll === 1) chars.splice(at, 0, rng.pick([...ALPHABET]));
        else if (roll === 2) chars[at] = rng.pick([...ALPHABET]);
        else if (roll === 3) chars.splice(at, chars.length - at);
        else chars.splice(at, 0, ...chars.slice(0, rng.int(0, 5)));
      }
      return chars.join('');
    };

    let tree = createPersonaTree();
    let parsedOk = 0;
    let rejectedLines = 0;
    let rejectedOps = 0;
    let appliedOps = 0;
    const batch: string[] = [];
    const flush = () => {
      const parsed = parseTreeOps(batch.join('\n'));
      for (const rejection of parsed.rejected) expect(rejection.reason.length).toBeGreaterThan(0);
      rejectedLines += parsed.rejected.length;
      parsedOk += parsed.ops.length;
      const { tree: next, step } = applyTreeOps(tree, parsed.ops);
      for (const rejection of step.rejected) expect(rejection.reason.length).toBeGreaterThan(0);
      rejectedOps += step.rejected.length;
      appliedOps += step.applied.length;
      tree = next;
      batch.length = 0;
    };
    for (let i = 0; i < LINES; i++) {
      const roll = rng.int(0, 2);
      let line: string;
      if (roll === 0) line = formatTreeOp(randomOp());
      else if (roll === 1) line = mutate(formatTreeOp(randomOp()));
      else line = Array.from({ length: rng.int(0, 40) }, () => rng.pick([...ALPHABET])).join('');
      batch.push(line.replace(/\n/g, ' '));
      if (batch.length === 50) flush();
    }
    flush();
    // Every written path is a schema leaf or exactly one level under an extensible branch.
    for (const path of Object.keys(tree.values)) {
      const parent = path.split('.').slice(0, -1).join('.');
      expect(schema.leaves.has(path) || schema.extensible.has(parent)).toBe(true);
      expect(typeof tree.values[path]).toBe('string');
      expect((tree.values[path] as string).length).toBeLessThanOrEqual(tree.policy.leafMaxChars);
    }
    expect(parsedOk).toBeGreaterThan(20_000);
    expect(rejectedLines).toBeGreaterThan(20_000);
    expect(appliedOps).toBeGreaterThan(1_000);
    expect(rejectedOps).toBeGreaterThan(1_000);
  }, 20_000);
});
