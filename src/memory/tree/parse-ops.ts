import type { TreeOp } from '../../schemas/memory.js';
import type { ParsedOpLine, ParsedOps } from '../types.js';

/**
 * PersonaTree op grammar (Inside Out §3; SPEC.md §2), one op per line, nothing else:
 *   ADD(path, "value") | UPDATE(path, "value") | DELETE(path, None) | NO_OP()
 * Whitespace around tokens is tolerated; everything else is strict: op names are upper case,
 * a path is dot-separated segments of letters, digits and _ (any script), a value is a double-quoted string whose only
 * escapes are \" \\ \n \t, and nothing may follow the closing parenthesis. Blank lines are
 * ignored (they are neither ops nor rejections).
 */
const OP_NAMES = ['ADD', 'UPDATE', 'DELETE', 'NO_OP'] as const;
const SEGMENT = /^[\p{L}\p{N}_/]+$/u;

class Cursor {
  index = 0;
  constructor(readonly text: string) {}
  skipSpace(): void {
    while (this.index < this.text.length && /\s/.test(this.text[this.index] as string)) this.index++;
  }
  peek(): string | undefined {
    return this.text[this.index];
  }
  done(): boolean {
    return this.index >= this.text.length;
  }
}

type Step<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Segments that name JavaScript object internals: never a tree path. */
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function readPath(cursor: Cursor): Step<string> {
  const start = cursor.index;
  while (!cursor.done() && /[\p{L}\p{N}_./]/u.test(cursor.peek() as string)) cursor.index++;
  const path = cursor.text.slice(start, cursor.index);
  if (path === '') {
    const found = cursor.peek();
    return { ok: false, reason: found === undefined ? 'missing path' : `expected a path, found "${found}"` };
  }
  const segments = path.split('.');
  if (segments.some((segment) => !SEGMENT.test(segment))) {
    return { ok: false, reason: `malformed path "${path}" (empty segment)` };
  }
  const reserved = segments.find((segment) => RESERVED_SEGMENTS.has(segment));
  if (reserved !== undefined) {
    return { ok: false, reason: `path "${path}" uses the reserved segment "${reserved}"` };
  }
  return { ok: true, value: path };
}

function readString(cursor: Cursor): Step<string> {
  if (cursor.peek() !== '"') {
    const found = cursor.peek();
    return {
      ok: false,
      reason:
        found === undefined ? 'missing value' : `value must be a double-quoted string, found "${found}"`,
    };
  }
  cursor.index++;
  let out = '';
  while (!cursor.done()) {
    const char = cursor.peek() as string;
    cursor.index++;
    if (char === '"') return { ok: true, value: out };
    if (char === '\\') {
      const next = cursor.peek();
      cursor.index++;
      if (next === '"' || next === '\\') out += next;
      else if (next === 'n') out += '\n';
      else if (next === 't') out += '\t';
      else return { ok: false, reason: `unsupported escape "\\${next ?? ''}" in value` };
      continue;
    }
    out += char;
  }
  return { ok: false, reason: 'unterminated string value' };
}

function expect(cursor: Cursor, token: string, what: string): Step<null> {
  cursor.skipSpace();
  if (cursor.text.startsWith(token, cursor.index)) {
    cursor.index += token.length;
    return { ok: true, value: null };
  }
  const found = cursor.peek();
  return {
    ok: false,
    reason: `expected ${what}, found ${found === undefined ? 'end of line' : `"${found}"`}`,
  };
}

/**
 * Parses one non-blank line into an op, or the reason it is rejected.
 *
 * @example
 * parseOpLine('DELETE(a.b, None)'); // { ok: true, value: { op: 'DELETE', path: 'a.b', value: null } }
 */
export function parseOpLine(text: string): Step<TreeOp> {
  const cursor = new Cursor(text);
  cursor.skipSpace();
  const nameStart = cursor.index;
  while (!cursor.done() && /[A-Za-z_]/.test(cursor.peek() as string)) cursor.index++;
  const name = text.slice(nameStart, cursor.index);
  if (name === '') return { ok: false, reason: 'line does not start with an operation name' };
  const op = OP_NAMES.find((candidate) => candidate === name);
  if (op === undefined) {
    const upper = OP_NAMES.find((candidate) => candidate === name.toUpperCase());
    return {
      ok: false,
      reason:
        upper === undefined
          ? `unknown operation "${name}" (expected ADD, UPDATE, DELETE or NO_OP)`
          : `operation names are upper case: "${name}" should be "${upper}"`,
    };
  }
  const steps: Array<() => Step<unknown>> = [];
  let path: string | null = null;
  let value: string | null = null;
  steps.push(() => expect(cursor, '(', '"(" after the operation name'));
  if (op !== 'NO_OP') {
    steps.push(() => {
      cursor.skipSpace();
      const result = readPath(cursor);
      if (result.ok) path = result.value;
      return result;
    });
    steps.push(() => expect(cursor, ',', `"," after the path of ${op}`));
    steps.push(() => {
      cursor.skipSpace();
      if (op === 'DELETE') {
        if (text.startsWith('None', cursor.index)) {
          cursor.index += 4;
          return { ok: true, value: null };
        }
        return { ok: false, reason: 'DELETE takes None as its value' };
      }
      const result = readString(cursor);
      if (!result.ok) return result;
      if (result.value.trim() === '')
        return { ok: false, reason: `${op} needs a non-empty value (use DELETE to remove)` };
      value = result.value;
      return result;
    });
  }
  steps.push(() => expect(cursor, ')', op === 'NO_OP' ? '")" (NO_OP takes no arguments)' : '")"'));
  for (const step of steps) {
    const result = step();
    if (!result.ok) return result;
  }
  cursor.skipSpace();
  if (!cursor.done())
    return { ok: false, reason: `unexpected text after ")": "${text.slice(cursor.index)}"` };
  return { ok: true, value: { op, path, value } };
}

/**
 * Parses a model's op list: every non-blank line becomes an op or a rejection with its reason.
 *
 * @example
 * parseTreeOps('ADD(4_Identity.Name, "Ana")\nNO_OP(x)').rejected[0]?.reason;
 * // 'expected ")" (NO_OP takes no arguments), found "x"'
 */
export function parseTreeOps(text: string): ParsedOps {
  const lines: ParsedOpLine[] = [];
  const rawLines = text.split(/\r?\n/);
  for (let i = 0; i < rawLines.length; i++) {
    const raw = rawLines[i] as string;
    if (raw.trim() === '') continue;
    const result = parseOpLine(raw);
    lines.push(
      result.ok
        ? { ok: true, line: i + 1, text: raw, op: result.value }
        : { ok: false, line: i + 1, text: raw, reason: result.reason },
    );
  }
  const ops: TreeOp[] = [];
  const rejected: ParsedOps['rejected'] = [];
  for (const line of lines) {
    if (line.ok) ops.push(line.op);
    else rejected.push({ line: line.line, text: line.text, reason: line.reason });
  }
  return { ops, lines, rejected };
}

/**
 * Renders one op in the exact line format the parser accepts (and a model should emit).
 *
 * @example
 * formatTreeOp({ op: 'ADD', path: 'a.b', value: 'say "hi"' }); // 'ADD(a.b, "say \\"hi\\"")'
 */
export function formatTreeOp(op: TreeOp): string {
  if (op.op === 'NO_OP') return 'NO_OP()';
  if (op.op === 'DELETE') return `DELETE(${op.path ?? ''}, None)`;
  const escaped = (op.value ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
  return `${op.op}(${op.path ?? ''}, "${escaped}")`;
}

/**
 * Renders an op list, one per line.
 *
 * @example
 * formatTreeOps([{ op: 'NO_OP', path: null, value: null }]); // 'NO_OP()'
 */
export function formatTreeOps(ops: readonly TreeOp[]): string {
  return ops.map(formatTreeOp).join('\n');
}
