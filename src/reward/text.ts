/**
 * Small text helpers shared by the rule rewards and the offline heuristic judges.
 *
 * @example tokenize('The Painting!') // ['the', 'painting']
 */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s:-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const STOPWORDS = new Set(
  'a an the of to in on at for and or is are was were be been it its this that with as by from i you my your me we our they their he she his her them do did does so but not no yes'.split(
    ' ',
  ),
);

export function tokenize(text: string): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** Tokens without stopwords: the content words a heuristic compares. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((token) => !STOPWORDS.has(token));
}

/** SQuAD-style token F1 between a prediction and a reference. */
export function tokenF1(prediction: string, reference: string): number {
  const predicted = contentTokens(prediction);
  const gold = contentTokens(reference);
  if (predicted.length === 0 || gold.length === 0) return predicted.length === gold.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const token of gold) counts.set(token, (counts.get(token) ?? 0) + 1);
  let overlap = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(token, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / predicted.length;
  const recall = overlap / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Share of `text`'s content words found in `reference` (0 when `text` has none). */
export function coverage(text: string, reference: string): number {
  const words = contentTokens(text);
  if (words.length === 0) return 0;
  const known = new Set(contentTokens(reference));
  return words.filter((word) => known.has(word)).length / words.length;
}

/** Rounds to two decimals so heuristic scores are byte-stable. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Text of a message content that may be a string, multimodal parts or null. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('');
  }
  return '';
}
