import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * vitest globalSetup: every test removes what it creates. Entries this project's tests name
 * (`pf-*`, `persona-forge*`) that appear in the system temp folder during the run and are still
 * there at the end fail the run, named one by one.
 */
const OURS = /^(pf-|persona-forge)/;

export default function setup(): () => void {
  const before = new Set(readdirSync(tmpdir()));
  return () => {
    const left = readdirSync(tmpdir()).filter((name) => OURS.test(name) && !before.has(name));
    if (left.length > 0) {
      throw new Error(
        `tests left ${left.length} entries in ${tmpdir()}: ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', …' : ''}`,
      );
    }
  };
}
