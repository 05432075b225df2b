import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

/** The cells of a CSV text as a spreadsheet reads them (RFC 4180: quoted cells, doubled quotes, CRLF rows). */
function cellsOf(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted && char === '"' && text[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (quoted) cell += char;
    else if (char === ',') endCell();
    else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      endCell();
      rows.push(row);
      row = [];
    } else cell += char;
  }
  return rows;
}

describe('CSV cells', () => {
  it('keeps a text a spreadsheet would run as a formula as text, with an apostrophe', () => {
    for (const formula of ['=HYPERLINK("http://x.example","click")', '+1+1', '-2+3', '@SUM(A1)', '＝1+1'])
      expect(cellsOf(csvRow([formula, 'x']))).toEqual([[`'${formula}`, 'x']]);
    expect(csvCell('Ava "The Closer" Agent')).toBe('"Ava ""The Closer"" Agent"');
  });

  it('never lets a control character start a row, a cell or a formula', () => {
    const typed = ['Ava\rAgent', 'Bo\r\nB', 'Cy\nC', '\t=1+1', '\r=cmd|calc', 'Di\u0000\u001b\u007f\u0085\u009bD', 'plain'];
    const rows = cellsOf(csvRow(typed));
    expect(rows).toEqual([['Ava Agent', 'Bo B', 'Cy C', "' =1+1", "' =cmd|calc", 'DiD', 'plain']]);
    // eslint-disable-next-line no-control-regex -- no control character may be left
    expect(csvRow(typed).slice(0, -2)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
