import { InputError } from '../errors/index.js';

/** Line breaks and other whitespace controls: a persona field is one line, so they become a space. */
const WHITESPACE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;

/**
 * Characters no persona text may hold: C0/C1 control characters (NUL …) other than the
 * whitespace above, DEL, the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069, which reorder what a reader sees), and a byte-order mark inside the text.
 * Zero-width joiners (emoji, Indic and Persian scripts) and the plain LRM/RLM marks stay.
 */
const FORBIDDEN = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/u;

const NAMES: Record<number, string> = {
  0: 'NUL',
  27: 'ESCAPE',
  127: 'DELETE',
  8234: 'LEFT-TO-RIGHT EMBEDDING',
  8235: 'RIGHT-TO-LEFT EMBEDDING',
  8236: 'POP DIRECTIONAL FORMATTING',
  8237: 'LEFT-TO-RIGHT OVERRIDE',
  8238: 'RIGHT-TO-LEFT OVERRIDE',
  8294: 'LEFT-TO-RIGHT ISOLATE',
  8295: 'RIGHT-TO-LEFT ISOLATE',
  8296: 'FIRST STRONG ISOLATE',
  8297: 'POP DIRECTIONAL ISOLATE',
  65279: 'ZERO WIDTH NO-BREAK SPACE',
};

/** `U+202E (RIGHT-TO-LEFT OVERRIDE)`. */
function describeChar(char: string): string {
  const code = char.codePointAt(0) as number;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name =
    NAMES[code] ?? (code < 0x20 || (code >= 0x7f && code < 0xa0) ? 'a control character' : undefined);
  return name === undefined ? hex : `${hex} (${name})`;
}

/** Where a persona string came from, for the error that rejects it. */
export interface PersonaTextSource {
  /** File path or `repo/file`. */
  source: string;
  /** 1-based line (jsonl/csv) or row (parquet). */
  line: number;
  /** The record's column (or the persona field it maps to). */
  field: string;
}

/**
 * A persona string as it may enter prompts and training data: Unicode NFC, line breaks and tabs
 * made single spaces, trimmed; a control or bidirectional-override character is an
 * `INPUT_INVALID` error naming the file, line, field and the character (the record is never
 * passed on with it, and never silently altered beyond whitespace).
 *
 * @example cleanPersonaText('Ana\nMaria', { source: 'p.jsonl', line: 3, field: 'name' }) // 'Ana Maria'
 */
export function cleanPersonaText(value: string, where: PersonaTextSource): string {
  const normal = value.normalize('NFC');
  const bad = FORBIDDEN.exec(normal);
  if (bad !== null) {
    throw new InputError(
      where.source,
      `line ${where.line}: field "${where.field}" holds ${describeChar(bad[0])} at character ${bad.index + 1}`,
      {
        field: where.field,
        hint: 'remove control and text-direction characters from the persona file (they would reach training prompts)',
      },
    );
  }
  return normal.replace(WHITESPACE_CONTROLS, ' ').replace(/ {2,}/g, ' ').trim();
}

const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'gu');

/**
 * Model-written persona text (enrichment answers): the same one-line NFC form, with control and
 * bidirectional-override characters dropped (a model answer is not a user's file to reject).
 *
 * @example stripPersonaControls('likes\u202Etea\n') // 'likestea'
 */
export function stripPersonaControls(value: string): string {
  return value
    .normalize('NFC')
    .replace(FORBIDDEN_ALL, '')
    .replace(WHITESPACE_CONTROLS, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}
