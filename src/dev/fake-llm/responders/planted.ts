/**
 * What the fake model wrote as a contradiction, by user message: its entailment judge answers
 * from it, and tests count what was planted and what was caught.
 */
const planted = new Map<string, Set<string>>();
let plantedCount = 0;

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Remembers that `message` contradicts the plan about `item`. */
export function plant(message: string, item: string): void {
  if (planted.size >= 50_000) planted.clear();
  const key = normal(message);
  const items = planted.get(key) ?? new Set<string>();
  items.add(item.toLowerCase());
  planted.set(key, items);
  plantedCount++;
}

/** The items `message` was written to contradict (empty when none). */
export function plantedIn(message: string): ReadonlySet<string> {
  return planted.get(normal(message)) ?? new Set();
}

/** Every planted message (for tests that check none survived) and the count planted. */
export function plantedMessages(): { messages: string[]; count: number } {
  return { messages: [...planted.keys()], count: plantedCount };
}
