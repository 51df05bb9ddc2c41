import { invalidJsonError, parseRunLines, RUN_FILES, readRunLines } from './run-lines.js';
import type { UserBundle } from './types.js';

export { RUN_FILES };

export interface ReadRunOptions {
  /** A record that fails its schema, or a user missing downstream: reported, then skipped. */
  onSkip?: (userId: string, reason: string) => void;
}

/**
 * Streams the users of a run as {plan, dialogue, memory} bundles, joining the plan, dialogue
 * and memory files by `userId` (each file sorted by user id, as the runner writes them). Only
 * one user's records are held at a time. Without a memory file, `memory` is null. A line that
 * is not JSON throws an `InputError` naming the file and line.
 *
 * @example for await (const bundle of readRunBundles('out/quickstart')) console.log(bundle.plan.userId);
 */
export async function* readRunBundles(
  runDir: string,
  options: ReadRunOptions = {},
): AsyncGenerator<UserBundle> {
  const skip = options.onSkip ?? (() => {});
  for await (const lines of readRunLines(runDir)) {
    const parsed = parseRunLines(lines);
    if (parsed.kind === 'invalid-json') throw invalidJsonError(runDir, parsed);
    if (parsed.kind === 'skip') skip(lines.userId, parsed.reason);
    else yield parsed.bundle;
  }
}
