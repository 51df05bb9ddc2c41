/**
 * The merge join of a run's per-user JSON Lines files (each sorted by `userId`, as the runner
 * writes them): for each record of the driving file, the record of every other file with the
 * same `userId`. Each file is read once, one user at a time; a file that is absent (`null`)
 * joins as `undefined`, a user missing from a present file as `null`.
 *
 * @example for await (const { key, driver, others } of joinByUser(plans, { synth: dialogues, memory: null })) …
 */
export async function* joinByUser<T extends { userId: string }, K extends string>(
  driver: AsyncIterable<T>,
  others: Record<K, AsyncGenerator<T> | null>,
): AsyncGenerator<{ key: string; driver: T; others: Record<K, T | null | undefined> }> {
  const names = Object.keys(others) as K[];
  const heads = new Map<K, T | null>();
  for (const name of names) {
    const stream = others[name];
    if (stream !== null) heads.set(name, await pull(stream));
  }
  try {
    for await (const record of driver) {
      const key = record.userId;
      const joined = {} as Record<K, T | null | undefined>;
      for (const name of names) {
        const stream = others[name];
        if (stream === null) {
          joined[name] = undefined;
          continue;
        }
        let head = heads.get(name) ?? null;
        while (head !== null && head.userId < key) head = await pull(stream);
        heads.set(name, head);
        joined[name] = head?.userId === key ? head : null;
      }
      yield { key, driver: record, others: joined };
    }
  } finally {
    // Close the other files even when the driver ends first or the consumer stops early.
    for (const name of names) await others[name]?.return(undefined);
  }
}

async function pull<T>(stream: AsyncGenerator<T>): Promise<T | null> {
  const next = await stream.next();
  return next.done === true ? null : next.value;
}

const USER_ID = /"userId":"((?:[^"\\]|\\.)*)"/;

/**
 * A JSON line's `userId`, read with a regex from `head` (the line's first few KB) and, when it is
 * not there, from the parsed `line()`. Throws the parse error of a line that is not JSON.
 *
 * @example userIdOf(line.slice(0, 4096), () => line)
 */
export function userIdOf(head: string, line: () => string): string {
  const match = USER_ID.exec(head);
  if (match !== null) return JSON.parse(`"${match[1]}"`) as string;
  return String((JSON.parse(line()) as { userId?: unknown }).userId);
}
