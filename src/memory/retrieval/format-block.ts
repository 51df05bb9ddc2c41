import type { MemoryEntryType, RetrievedEntry, RetrieveResult } from '../types.js';

const HEADINGS: Record<MemoryEntryType, string> = {
  semantic: 'Semantic memory',
  episodic: 'Episodic memory',
  procedural: 'Procedural memory',
};
const ORDER: readonly MemoryEntryType[] = ['semantic', 'episodic', 'procedural'];

/**
 * `2024-03-05T14:07:00.000Z` → `2024-03-05 14:07` (the `<retrieve>` block's time format).
 *
 * @example
 * formatMinute('2024-03-05T14:07:00.000Z'); // '2024-03-05 14:07'
 */
export function formatMinute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The text block a rollout appends after a `<retrieve>` turn (and the reward server's
 * `/v1/memory/retrieve` returns): entries grouped by memory type, each with its time, wrapped in
 * `<memory>` tags; an empty retrieval says so explicitly so the model can retry or answer unknown.
 *
 * @example
 * formatMemoryBlock({ entries: [], byType: { semantic: [], episodic: [], procedural: [] } });
 * // '<memory>\nNo matching memory.\n</memory>'
 */
export function formatMemoryBlock(results: RetrieveResult | readonly RetrievedEntry[]): string {
  const entries: readonly RetrievedEntry[] = Array.isArray(results)
    ? results
    : (results as RetrieveResult).entries;
  if (entries.length === 0) return '<memory>\nNo matching memory.\n</memory>';
  const lines: string[] = ['<memory>'];
  for (const type of ORDER) {
    const ofType = entries.filter((entry) => entry.type === type);
    if (ofType.length === 0) continue;
    lines.push(`${HEADINGS[type]}:`);
    ofType.forEach((entry, index) => {
      const keywords = entry.keywords.length > 0 ? ` (keywords: ${entry.keywords.join(', ')})` : '';
      lines.push(`${index + 1}. [${formatMinute(entry.time)}] ${entry.text}${keywords}`);
    });
  }
  lines.push('</memory>');
  return lines.join('\n');
}
