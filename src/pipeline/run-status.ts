import { BudgetExceededError } from '../errors/index.js';
import type { QuarantineRecord } from '../schemas/common.js';

/** The most common quarantine reasons (with the user id taken out, so they group). */
export function topReasons(records: QuarantineRecord[], n: number): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const reason = record.reason.replace(/^user "[^"]*": /, '');
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([reason, count]) => ({ reason, count }));
}

/** `complete`, `empty`, `stopped: budget`, `stopped` or `failed`. */
export function runStatus(
  summary: { ok: boolean; stages: ReadonlyArray<{ status: string }> },
  error?: unknown,
): string {
  if (summary.ok) return 'complete';
  if (summary.stages.some((s) => s.status === 'empty')) return 'empty';
  if (error instanceof BudgetExceededError) return 'stopped: budget';
  return summary.stages.some((s) => s.status === 'stopped') ? 'stopped' : 'failed';
}
