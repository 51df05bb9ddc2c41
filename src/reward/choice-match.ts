import { normalizeText } from './text.js';

/**
 * Option matching for multiple-choice and binary answers: `(b)`, `b`, `B.`, `b)`, `Answer: (b)`,
 * or the option's text ("Painting.") all select option b.
 *
 * @example matchChoice('B. Painting', ['Sketching.', 'Painting.']) // 1
 */
export type Choices = string[];

/** Options from a `choices` column: a list, or an object keyed `(a)`/`a`/`A` in order. */
export function readChoices(value: unknown): Choices | null {
  if (Array.isArray(value)) return value.every((entry) => typeof entry === 'string') ? value : null;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.every(([, text]) => typeof text === 'string')) return null;
    return entries
      .map(([key, text]) => [letterIndex(key), text as string] as const)
      .sort((left, right) => (left[0] ?? 99) - (right[0] ?? 99))
      .map(([, text]) => text);
  }
  if (typeof value === 'string') {
    // PersonaMem stores options as a Python-list string: "['(a) x', '(b) y']".
    const quoted = [...value.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map(
      (m) => m[1] ?? m[2] ?? '',
    );
    return quoted.length >= 2 ? quoted : null;
  }
  return null;
}

const LETTERS = 'abcdefghij';

function letterIndex(key: string): number | undefined {
  const match = /^\s*\(?([a-jA-J])\)?[.):]?\s*$/.exec(key);
  return match?.[1] === undefined ? undefined : LETTERS.indexOf(match[1].toLowerCase());
}

/** Strips an option's own `(a) ` label so its text can be compared. */
function optionText(option: string): string {
  return normalizeText(option.replace(/^\s*\(?[a-jA-J]\)[\s.:]*|^\s*[a-jA-J][.:]\s+/, ''));
}

const BINARY: Record<string, string> = { yes: 'yes', no: 'no', true: 'yes', false: 'no', y: 'yes', n: 'no' };

/**
 * Index of the option `text` selects, or null when it selects none or several. Letters win
 * over text; a bare letter or a leading `(x)`/`x.`/`x)` counts, as does `answer is x`.
 */
export function matchChoice(text: string, choices: Choices | null): number | null {
  const raw = text.trim();
  const limit = choices?.length ?? 4;
  const fromLetter = (letter: string | undefined): number | null => {
    if (letter === undefined) return null;
    const index = LETTERS.indexOf(letter.toLowerCase());
    return index >= 0 && index < limit ? index : null;
  };
  const patterns = [
    /^\(?([a-jA-J])\)?(?:[.):,]|\s*$)/, // (b) / b / B. / b) at the start
    /\banswer\s*(?:is|:)?\s*\(?([a-jA-J])\)?(?![\p{L}])/iu,
    /\(([a-jA-J])\)/, // a parenthesised letter anywhere
  ];
  for (const pattern of patterns) {
    const index = fromLetter(pattern.exec(raw)?.[1]);
    if (index !== null) return index;
  }
  if (choices === null) return null;
  const normalized = normalizeText(raw);
  const texts = choices.map(optionText);
  const exact = texts.indexOf(normalized);
  if (exact >= 0) return exact;
  const binary = BINARY[normalized.split(' ')[0] ?? ''];
  if (binary !== undefined) {
    const index = texts.findIndex((option) => BINARY[option.split(' ')[0] ?? ''] === binary);
    if (index >= 0) return index;
  }
  const contained = texts
    .map((option, index) => ({ option, index }))
    .filter(({ option }) => option !== '' && ` ${normalized} `.includes(` ${option} `));
  return contained.length === 1 ? (contained[0]?.index ?? null) : null;
}

/** The gold option index from a `solution` (letter, option text, yes/no, or a number index). */
export function goldChoice(solution: string | number, choices: Choices | null): number | null {
  if (typeof solution === 'number') return Number.isInteger(solution) ? solution : null;
  if (/^\s*\d+\s*$/.test(solution) && choices !== null) {
    const index = Number(solution);
    return index < choices.length ? index : null;
  }
  return matchChoice(solution, choices);
}

/** True when a gold answer looks like a bare option letter or yes/no. */
export function looksLikeChoice(solution: string): 'mc' | 'binary' | null {
  if (/^\s*\(?[a-jA-J]\)?[.):]?\s*$/.test(solution)) return 'mc';
  if (BINARY[normalizeText(solution)] !== undefined) return 'binary';
  return null;
}
