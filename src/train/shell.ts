import type { SwiftArgValue } from '../schemas/recipe.js';

/**
 * ms-swift value formatting (Command-line-parameters.md, Tips): booleans `true|false`, lists as
 * several space-separated values, dicts as one JSON string.
 *
 * @example
 * swiftValue(true); // ['true']
 * swiftValue(['a.jsonl', 'b.jsonl']); // ['a.jsonl', 'b.jsonl']
 */
export function swiftValue(value: SwiftArgValue): string[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'number' ? formatNumber(v) : String(v)));
  if (typeof value === 'object') return [JSON.stringify(value)];
  if (typeof value === 'number') return [formatNumber(value)];
  return [String(value)];
}

/** Small rates print as `2e-5` (as papers and ms-swift examples write them), not `0.00002`. */
function formatNumber(value: number): string {
  if (value !== 0 && Math.abs(value) < 1e-3) return value.toExponential();
  return String(value);
}

/**
 * Quotes one word for POSIX sh, only when needed, so printed commands are copy-pasteable.
 *
 * @example
 * shellQuote('{"a": 1}'); // `'{"a": 1}'`
 */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

/**
 * One line of shell: `K=V … program args…`.
 *
 * @example
 * shellLine({ NPROC_PER_NODE: '8' }, ['swift', 'sft']); // 'NPROC_PER_NODE=8 swift sft'
 */
export function shellLine(
  env: Record<string, string>,
  argv: string[],
  refs: Record<string, string> = {},
): string {
  const assigns = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const refAssigns = Object.entries(refs).map(([k, source]) => `${k}="$${source}"`);
  return [...assigns, ...refAssigns, ...argv.map(shellQuote)].join(' ');
}
