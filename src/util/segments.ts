/**
 * Even contiguous segments of a sequence: which of `parts` segments position `i` of `length`
 * falls in. The realizer says a session's topics over its rounds with it, and the episodic gold
 * splits the session into the same segments, so each episode's topic label is its rounds' topic.
 *
 * @example segmentOf(4, 10, 4) // 1 (segments: 0–1, 2–4, 5–6, 7–9)
 */
export function segmentOf(i: number, length: number, parts: number): number {
  const n = Math.max(1, Math.min(parts, length));
  // Segment p covers [floor(p·length/n), floor((p+1)·length/n)).
  let part = Math.min(n - 1, Math.floor(((i + 1) * n - 1) / length));
  while (part > 0 && i < Math.floor((part * length) / n)) part--;
  while (part < n - 1 && i >= Math.floor(((part + 1) * length) / n)) part++;
  return part;
}
