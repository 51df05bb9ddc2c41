import { InputError } from '../errors/index.js';

/**
 * A small RFC 4180 CSV parser: quoted fields, doubled quotes, commas and newlines inside quotes,
 * CRLF. The first row is the header. Enough for persona tables; not a general dialect sniffer.
 *
 * @example
 * parseCsv('persona,name\n"A nurse, 40",Ana\n') // [{ line: 2, record: { persona: 'A nurse, 40', name: 'Ana' } }]
 */
export function parseCsv(
  text: string,
  source = 'csv',
): Array<{ line: number; record: Record<string, string> }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let quoteLine = 1;
  const endRow = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line++;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      endRow();
      line++;
      rowLine = line;
    } else cell += char;
  }
  if (quoted) {
    // Without this check the rest of the file would silently become one field of one row.
    throw new InputError(source, `line ${quoteLine}: a quoted field is never closed`, {
      hint: 'close the quote, or double a quote inside a field ("")',
    });
  }
  if (cell !== '' || cells.length > 0) endRow();
  const [header, ...body] = rows;
  if (header === undefined) return [];
  const names = header.cells.map((name, index) => (index === 0 ? name.replace(/^\uFEFF/, '') : name).trim());
  return body.map(({ line: at, cells: values }) => {
    const record: Record<string, string> = {};
    names.forEach((name, index) => {
      record[name] = values[index] ?? '';
    });
    return { line: at, record };
  });
}
