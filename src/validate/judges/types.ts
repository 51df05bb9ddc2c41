import type { JudgeCheckName } from '../../schemas/validate-config.js';

/** One judge verdict for one user and check (worst session when several were judged). */
export interface JudgeVerdict {
  check: JudgeCheckName;
  userId: string;
  /** 0 (bad) … 1 (good). */
  score: number;
  passed: boolean;
  location: string;
  reason: string;
}

/** `offline-heuristic` when the judge role has no endpoint, else `llm:<model>`. */
export type JudgeMode = 'offline-heuristic' | `llm:${string}`;
