/** A thread-pool handler for src/util/thread-pool.test.ts: waits, echoes, remembers, fails or exits on request. */
let remembered: unknown = null;

export async function poolJob(
  message: { wait?: number; value?: unknown; remember?: unknown; fail?: string; exit?: number },
  data: { prefix: string },
): Promise<unknown> {
  if (message.fail !== undefined) throw new Error(message.fail);
  // In a worker thread, process.exit ends the thread (as a crash would), not the process.
  if (message.exit !== undefined) process.exit(message.exit);
  if (message.remember !== undefined) {
    remembered = message.remember;
    return null;
  }
  await new Promise((done) => setTimeout(done, message.wait ?? 0));
  return { value: `${data.prefix}${String(message.value)}`, remembered };
}

/** A wrap for `poolJob` (see ThreadPoolOptions.wrap): the same handler, its value uppercased. */
export function uppercased(handler: typeof poolJob): typeof poolJob {
  return async (message, data) => {
    const result = (await handler(message, data)) as { value: string; remembered: unknown };
    return { ...result, value: result.value.toUpperCase() };
  };
}
