import { describe, expect, it } from 'vitest';
import { formatTreeOp, parseOpLine, parseTreeOps } from './parse-ops.js';

const P = '5_Behavioral_Characteristics.Lifestyle.Self_Care.coffee';

describe('parseOpLine accepts every op form', () => {
  it.each([
    [`ADD(${P}, "oat milk lattes")`, { op: 'ADD', path: P, value: 'oat milk lattes' }],
    [`UPDATE(${P}, "black americano")`, { op: 'UPDATE', path: P, value: 'black americano' }],
    [`DELETE(${P}, None)`, { op: 'DELETE', path: P, value: null }],
    ['NO_OP()', { op: 'NO_OP', path: null, value: null }],
    [`  ADD (  ${P} ,   "x"  )  `, { op: 'ADD', path: P, value: 'x' }],
    ['\tNO_OP( )\t', { op: 'NO_OP', path: null, value: null }],
    [`DELETE(${P},None)`, { op: 'DELETE', path: P, value: null }],
    ['ADD(a.b, "she said \\"hi\\"")', { op: 'ADD', path: 'a.b', value: 'she said "hi"' }],
    ['ADD(a.b, "back\\\\slash\\nnew\\tline")', { op: 'ADD', path: 'a.b', value: 'back\\slash\nnew\tline' }],
    ['UPDATE(Root, "a, b (c)")', { op: 'UPDATE', path: 'Root', value: 'a, b (c)' }],
    ['ADD(a.b, "émoji ✓ 中文")', { op: 'ADD', path: 'a.b', value: 'émoji ✓ 中文' }],
  ])('%s', (line, op) => {
    expect(parseOpLine(line)).toEqual({ ok: true, value: op });
  });
});

describe('parseOpLine rejects malformed lines with a reason', () => {
  it.each([
    ['add(a.b, "x")', /upper case/],
    ['INSERT(a.b, "x")', /unknown operation "INSERT"/],
    ['ADD a.b, "x"', /expected "\(" after the operation name/],
    ['ADD(a.b "x")', /expected "," after the path/],
    ['ADD(a.b, x)', /double-quoted string/],
    ["ADD(a.b, 'x')", /double-quoted string/],
    ['ADD(a.b, "x"', /expected "\)"/],
    ['ADD(a.b, "x)', /unterminated string/],
    ['ADD(a.b, "x") trailing', /unexpected text after/],
    ['ADD(a.b, "x"); NO_OP()', /unexpected text after/],
    ['ADD(, "x")', /expected a path/],
    ['ADD(a..b, "x")', /malformed path/],
    ['ADD(.a, "x")', /malformed path/],
    ['ADD(a.b., "x")', /malformed path/],
    ['ADD(a-b, "x")', /expected "," after the path/],
    ['ADD(a.b, "")', /non-empty value/],
    ['UPDATE(a.b, "   ")', /non-empty value/],
    ['ADD(a.b, "bad \\q escape")', /unsupported escape/],
    ['ADD(a.b)', /expected "," after the path/],
    ['DELETE(a.b, "x")', /DELETE takes None/],
    ['DELETE(a.b, none)', /DELETE takes None/],
    ['DELETE(a.b)', /expected "," after the path/],
    ['NO_OP(a.b)', /NO_OP takes no arguments/],
    ['NO_OP', /expected "\("/],
    ['NOOP()', /unknown operation/],
    ['- ADD(a.b, "x")', /does not start with an operation name/],
    ['1. ADD(a.b, "x")', /does not start with an operation name/],
    ['```', /does not start with an operation name/],
    ['ADD(a.b, "x", "y")', /expected "\)"/],
  ])('%s', (line, reason) => {
    const result = parseOpLine(line);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe('parseTreeOps', () => {
  it('maps every non-blank line to an op or a rejection, keeping line numbers', () => {
    const parsed = parseTreeOps('ADD(a.b, "x")\n\n  \nbogus\r\nNO_OP()');
    expect(parsed.ops.map((op) => op.op)).toEqual(['ADD', 'NO_OP']);
    expect(parsed.rejected).toEqual([{ line: 4, text: 'bogus', reason: expect.any(String) }]);
    expect(parsed.lines).toHaveLength(3);
  });

  it('round-trips formatted ops', () => {
    const ops = [
      { op: 'ADD', path: 'a.b', value: 'q "x" \\ y\nz' },
      { op: 'UPDATE', path: 'a.c', value: 'v' },
      { op: 'DELETE', path: 'a.d', value: null },
      { op: 'NO_OP', path: null, value: null },
    ] as const;
    const text = ops.map(formatTreeOp).join('\n');
    expect(parseTreeOps(text).ops).toEqual(ops);
  });
});

describe('reserved path segments', () => {
  it.each(['__proto__', 'constructor', 'prototype'])(
    'a path through %s is refused, and nothing is polluted',
    (segment) => {
      const parsed = parseTreeOps(`ADD(preferences.${segment}.polluted, "yes")`);
      expect(parsed.ops).toHaveLength(0);
      expect(parsed.lines[0]?.ok === false ? parsed.lines[0].reason : '').toContain(
        `reserved segment "${segment}"`,
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});
