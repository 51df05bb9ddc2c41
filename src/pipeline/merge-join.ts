import { readJsonl } from '../util/fs.js';

/**
 * Streams several JSON Lines files whose records are sorted by `userId` and yields, for each
 * user present in the first (driving) file, the joined record set. Users missing from a later
 * file (quarantined there) are skipped and reported through `onMissing`.
 *
 * @example
 * for await (const joined of mergeJoin({ plan: 'run/plan/plan.jsonl', synth: 'run/dialogues/dialogues.jsonl' }))
 *   console.log(joined.userId, Object.keys(joined.records));
 */
export async function* mergeJoin(
  files: Record<string, string>,
  onMissing: (userId: string, stage: string) => void = () => {},
): AsyncGenerator<{ userId: string; records: Record<string, unknown> }> {
  const names = Object.keys(files);
  const iterators = names.map((name) => readJsonl(files[name] as string)[Symbol.asyncIterator]());
  const heads: Array<{ userId: string; value: unknown } | null> = await Promise.all(iterators.map(pull));
  const [driver, ...others] = names.map((name, i) => ({ name, i }));
  if (driver === undefined) return;
  try {
    yield* join(driver, others, heads, iterators, onMissing);
  } finally {
    // Close every file even when the consumer stops early or a later file has extra lines.
    await Promise.all(iterators.map((iterator) => iterator.return?.(undefined)));
  }
}

async function* join(
  driver: { name: string; i: number },
  others: Array<{ name: string; i: number }>,
  heads: Array<{ userId: string; value: unknown } | null>,
  iterators: Array<AsyncIterator<unknown>>,
  onMissing: (userId: string, stage: string) => void,
): AsyncGenerator<{ userId: string; records: Record<string, unknown> }> {
  while (heads[driver.i] != null) {
    const head = heads[driver.i] as { userId: string; value: unknown };
    const records: Record<string, unknown> = { [driver.name]: head.value };
    let complete = true;
    for (const other of others) {
      let current = heads[other.i] ?? null;
      while (current != null && current.userId < head.userId) {
        current = await pull(iterators[other.i]!);
        heads[other.i] = current;
      }
      if (current != null && current.userId === head.userId) {
        records[other.name] = current.value;
      } else {
        complete = false;
        onMissing(head.userId, other.name);
      }
    }
    if (complete) yield { userId: head.userId, records };
    heads[driver.i] = await pull(iterators[driver.i]!);
  }
}

async function pull(iterator: AsyncIterator<unknown>): Promise<{ userId: string; value: unknown } | null> {
  const next = await iterator.next();
  if (next.done === true) return null;
  const value = next.value as { userId?: unknown };
  return { userId: String(value.userId), value };
}
