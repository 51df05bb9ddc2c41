import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';

describe('parseCsv', () => {
  it.each([
    ['plain', 'a,b\n1,2\n', [{ line: 2, record: { a: '1', b: '2' } }]],
    ['quoted comma', 'a,b\n"x, y",2\n', [{ line: 2, record: { a: 'x, y', b: '2' } }]],
    ['doubled quote', 'a\n"say ""hi"""\n', [{ line: 2, record: { a: 'say "hi"' } }]],
    [
      'newline in quotes',
      'a,b\n"l1\nl2",z\nq,r\n',
      [
        { line: 2, record: { a: 'l1\nl2', b: 'z' } },
        { line: 4, record: { a: 'q', b: 'r' } },
      ],
    ],
    ['CRLF and BOM, no final newline', '\uFEFFa,b\r\n1,2', [{ line: 2, record: { a: '1', b: '2' } }]],
    ['blank lines skipped', 'a\n\n1\n', [{ line: 3, record: { a: '1' } }]],
    ['short row', 'a,b\n1\n', [{ line: 2, record: { a: '1', b: '' } }]],
  ])('%s', (_name, text, expected) => {
    expect(parseCsv(text)).toEqual(expected);
  });
});
