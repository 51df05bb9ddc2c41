import { scoreTreeOps } from '../memory/index.js';
import { hasValue } from './item-context.js';
import { type ItemOutcome, invalidItem, notApplicable, type RewardFunction } from './types.js';

/**
 * PersonaTree operation reward in [−1, 1] against `gt_ops` (SPEC.md §2): the judge's anchored
 * score blended with the deterministic structural score,
 * `(judgeWeight·judge + structuralWeight·structural) / (judgeWeight + structuralWeight)`, where the
 * structural score is the memory engine's `scoreTreeOps` (operation, path and value matching).
 * With the offline judge the value is the structural score alone (labelled `offline-structural`).
 *
 * @example POST /v1/rewards {"reward":"tree_ops","items":[{"completion":"NO_OP()","gt_ops":"NO_OP()"}]}
 */
export const treeOpsReward: RewardFunction = {
  name: 'tree_ops',
  description:
    'PersonaTree operations vs `gt_ops`: LLM judge score in [-1,1] (anchors 1 near-perfect … -1 meaningless) blended with a structural op/path/value match; structural only when offline.',
  requiredColumns: ['gt_ops'],
  usesJudge: true,
  score(run) {
    const { judgeWeight, structuralWeight } = run.config.tree_ops;
    return run.items.map((item): ItemOutcome | Promise<ItemOutcome> => {
      if (!hasValue(item.gt_ops)) return notApplicable('no `gt_ops` column (not a PersonaTree op-list item)');
      const gold = opsText(item.gt_ops);
      if (gold === null) return invalidItem('`gt_ops` must be a string or a list of operation lines');
      const answer = /<answer>([\s\S]*?)<\/answer>/.exec(item.completion)?.[1];
      const predicted = (answer ?? item.completion.replace(/<think>[\s\S]*?<\/think>/g, '')).trim();
      const structural = scoreTreeOps(predicted, gold).score;
      if (run.judge.offline || judgeWeight === 0) return { value: round4(structural) };
      return run.judge.evaluate('tree_ops', { gt_ops: gold, pred_ops: predicted }).then((outcome) => {
        run.noteJudge(outcome);
        if (!outcome.ok) return { value: null, code: outcome.code, message: outcome.message };
        const blended =
          (judgeWeight * outcome.value + structuralWeight * structural) / (judgeWeight + structuralWeight);
        return { value: round4(blended) };
      });
    });
  },
};

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Ops text from a gold column given as one string or a list of lines. */
function opsText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((line) => typeof line === 'string')) return value.join('\n');
  return null;
}
