/**
 * The one tokenizer of every lexical path (BM25 index, queries, keyword matching): lower case,
 * Unicode letters/digits, English stop words dropped, a light plural fold (`dogs` → `dog`,
 * `cities` → `city`) so a question's wording still meets the memory's.
 */
const STOP_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being am do does did ' +
    'i me my mine we our you your he she it its they them their this that these those what which who whom ' +
    'how when where why there here than then so not no yes can could would should will shall may might must ' +
    'have has had about into over under again just also very too s t'
  ).split(' '),
);

function fold(token: string): string {
  if (token.length <= 3 || /\d/.test(token)) return token;
  if (token.endsWith('ies') && token.length > 4) return `${token.slice(0, -3)}y`;
  if (token.endsWith('ss') || token.endsWith('us') || token.endsWith('is')) return token;
  if (token.endsWith('s')) return token.slice(0, -1);
  return token;
}

/**
 * Splits text into index terms.
 *
 * @example
 * tokenize('My dogs love the Cities!'); // ['dog', 'love', 'city']
 */
export function tokenize(text: string): string[] {
  const raw = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (raw === null) return [];
  const out: string[] = [];
  for (const token of raw) {
    if (STOP_WORDS.has(token)) continue;
    out.push(fold(token));
  }
  return out;
}
