/** A thread-pool handler for src/util/thread-pool.test.ts: waits, echoes, remembers, fails on request. */
let remembered: unknown = null;

export async function poolJob(
  message: { wait?: number; value?: unknown; remember?: unknown; fail?: string },
  data: { prefix: string },
): Promise<unknown> {
  if (message.fail !== undefined) throw new Error(message.fail);
  if (message.remember !== undefined) {
    remembered = message.remember;
    return null;
  }
  await new Promise((done) => setTimeout(done, message.wait ?? 0));
  return { value: `${data.prefix}${String(message.value)}`, remembered };
}
