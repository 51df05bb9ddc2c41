import type { UserBundle } from '../../src/validate/types.js';

/** A deliberate defect applied to a clean fixture user (mutated in place); `check` must catch it. */
export interface Defect {
  name: string;
  check: string;
  apply(bundle: UserBundle, previous: UserBundle | null): void;
}
