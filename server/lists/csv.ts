import { withoutControlCharacters } from '../../common/fields.ts';

// CSV exports (RFC 4180) that staff open in a spreadsheet: a cell is data, never a formula or a new row.

/** What starts a formula in Excel, LibreOffice or Google Sheets (and their full-width forms), spaces before it too (an import may trim them). */
const FORMULA_START = /^\s*[=+\-@＝＋－＠]/;

/**
 * One cell: on one line and without control characters (the site's one text rule, common/fields.ts),
 * so no CR, LF or tab starts a row or a formula; a text a spreadsheet would run as a formula keeps
 * an apostrophe in front (OWASP's advice); always quoted, quotes doubled.
 */
export function csvCell(value: string): string {
  const text = withoutControlCharacters(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One row of cells, ending in CRLF. */
export const csvRow = (values: string[]) => `${values.map(csvCell).join(',')}\r\n`;
