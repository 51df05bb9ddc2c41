import type { TreeOp } from '../../schemas/memory.js';
import { parseTreeOps } from './parse-ops.js';

/** Weights of one op pair's similarity (sum 1); exported so callers can show the breakdown. */
export interface ScoreTreeOpsOptions {
  /** @default 0.4 */
  pathWeight?: number;
  /** @default 0.3 */
  opWeight?: number;
  /** @default 0.3 */
  valueWeight?: number;
  /** Subtracted per rejected (unparseable) predicted line, as a share of all predicted lines. @default 0.5 */
  rejectPenalty?: number;
}

export interface TreeOpsScore {
  /** In [−1, 1]; 1 = same ops, paths and values. */
  score: number;
  precision: number;
  recall: number;
  rejectedLines: number;
}

function tokens(text: string | null): string[] {
  if (text === null) return [];
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Token-multiset F1 between two values; two null values (DELETE/NO_OP) agree fully. */
function valueSimilarity(a: string | null, b: string | null): number {
  if (a === null && b === null) return 1;
  const left = tokens(a);
  const right = tokens(b);
  if (left.length === 0 || right.length === 0) return left.length === right.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const token of left) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of right) {
    const count = counts.get(token) ?? 0;
    if (count > 0) {
      common++;
      counts.set(token, count - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / right.length;
  const recall = common / left.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Share of leading path segments two paths have in common (0 unless the root branch matches). */
function pathSimilarity(a: string | null, b: string | null): number {
  if (a === b) return 1;
  if (a === null || b === null) return 0;
  const left = a.split('.');
  const right = b.split('.');
  let shared = 0;
  while (shared < left.length && shared < right.length && left[shared] === right[shared]) shared++;
  // A partial path only earns half credit: the op would still land on the wrong leaf.
  return (0.5 * shared) / Math.max(left.length, right.length);
}

function opSimilarity(a: TreeOp['op'], b: TreeOp['op']): number {
  if (a === b) return 1;
  // ADD and UPDATE both write the leaf; confusing them is half wrong.
  if ((a === 'ADD' && b === 'UPDATE') || (a === 'UPDATE' && b === 'ADD')) return 0.5;
  return 0;
}

/**
 * Deterministic structural score of a predicted op list against the gold list, in [−1, 1]
 * (the reward server's rule-based counterpart of Inside Out's judge scale). Pairs are matched
 * greedily by similarity (path, operation, value-token F1); the F1 of the matched similarity
 * mass maps to [−1, 1] as 2·F1 − 1, minus a penalty for unparseable lines. NO_OP lines only
 * count when one side has nothing else: an empty prediction scores −1.
 *
 * @example
 * scoreTreeOps('UPDATE(a.b, "likes tea")', 'UPDATE(a.b, "likes tea")').score; // 1
 */
export function scoreTreeOps(
  pred: string | readonly TreeOp[],
  gold: string | readonly TreeOp[],
  options: ScoreTreeOpsOptions = {},
): TreeOpsScore {
  const { pathWeight = 0.4, opWeight = 0.3, valueWeight = 0.3, rejectPenalty = 0.5 } = options;
  let rejectedLines = 0;
  let totalLines = 0;
  let predOps: TreeOp[];
  if (typeof pred === 'string') {
    const parsed = parseTreeOps(pred);
    predOps = parsed.ops;
    rejectedLines = parsed.rejected.length;
    totalLines = parsed.lines.length;
  } else {
    predOps = [...pred];
    totalLines = predOps.length;
  }
  const goldOps = typeof gold === 'string' ? parseTreeOps(gold).ops : [...gold];
  const effective = (ops: TreeOp[]): TreeOp[] => {
    const real = ops.filter((op) => op.op !== 'NO_OP');
    return real.length > 0 ? real : ops.slice(0, 1);
  };
  const left = effective(predOps);
  const right = effective(goldOps);
  if (left.length === 0 || right.length === 0) {
    const both = left.length === 0 && right.length === 0 && rejectedLines === 0;
    return { score: both ? 1 : -1, precision: 0, recall: 0, rejectedLines };
  }
  const pairs: Array<{ i: number; j: number; s: number }> = [];
  for (let i = 0; i < left.length; i++) {
    for (let j = 0; j < right.length; j++) {
      const p = left[i] as TreeOp;
      const g = right[j] as TreeOp;
      const s =
        pathWeight * pathSimilarity(p.path, g.path) +
        opWeight * opSimilarity(p.op, g.op) +
        valueWeight * valueSimilarity(p.value, g.value);
      if (s > 0) pairs.push({ i, j, s });
    }
  }
  pairs.sort((a, b) => b.s - a.s || a.i - b.i || a.j - b.j);
  const usedPred = new Set<number>();
  const usedGold = new Set<number>();
  let mass = 0;
  for (const pair of pairs) {
    if (usedPred.has(pair.i) || usedGold.has(pair.j)) continue;
    usedPred.add(pair.i);
    usedGold.add(pair.j);
    mass += pair.s;
  }
  const precision = mass / left.length;
  const recall = mass / right.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const penalty = totalLines === 0 ? 0 : (rejectPenalty * rejectedLines) / totalLines;
  const score = Math.max(-1, Math.min(1, 2 * f1 - 1 - penalty));
  return { score: Math.round(score * 1e6) / 1e6, precision, recall, rejectedLines };
}
