/**
 * Tasks (file writes) run in the background, at most `limit` at a time, so a loop producing them
 * goes on with its next item instead of waiting for each. `add` waits only when `limit` tasks
 * are running; the first failure is thrown by the next `add` or by `drain`, which waits for all.
 *
 * @example const writes = backgroundWrites(8); await writes.add(() => writeFile(path, text)); await writes.drain();
 */
export function backgroundWrites(limit: number) {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  const check = () => {
    if (failure !== null) throw failure.error;
  };
  return {
    async add(task: () => Promise<void>): Promise<void> {
      check();
      while (running.size >= Math.max(1, limit)) await Promise.race(running);
      check();
      const done: Promise<void> = task()
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => running.delete(done));
      running.add(done);
    },
    async drain(): Promise<void> {
      await Promise.all(running);
      check();
    },
  };
}
