/**
 * Deterministic compression of an overlong leaf value to `budget` characters: collapse
 * whitespace, drop repeated clauses (merged UPDATE values tend to repeat old content), then cut
 * at the last word boundary and mark the cut with "…". Same input, same output.
 *
 * @example
 * compressValue('likes tea; likes tea; hates coffee', 20); // 'likes tea; hates…' (17 chars)
 */
export function compressValue(value: string, budget: number): string {
  let text = value.replace(/\s+/g, ' ').trim();
  if (text.length <= budget) return text;
  const clauses = text.split(/(?<=[;.])\s+/);
  const seen = new Set<string>();
  text = clauses
    .filter((clause) => {
      const key = clause.toLowerCase().replace(/[;.\s]+$/, '');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join(' ');
  if (text.length <= budget) return text;
  const room = Math.max(1, budget - 1);
  const cut = text.slice(0, room);
  const boundary = cut.lastIndexOf(' ');
  const head = (boundary > room / 2 ? cut.slice(0, boundary) : cut).replace(/[\s,;:.]+$/, '');
  return `${head}…`;
}
