/**
 * CSV for spreadsheet programs (RFC 4180 quoting). UTF-8 with a byte order mark, because Excel
 * reads a BOM-less file as the system code page and garbles umlauts. The separator defaults to
 * `;`, which Excel and LibreOffice in German locales split into columns; with `;` (and tab) numbers
 * get a decimal comma so those programs read them as numbers, with `,` a decimal point.
 */

export type CsvSeparator = ';' | ',' | 'tab';

export const CSV_SEPARATORS: readonly CsvSeparator[] = [';', ',', 'tab'];
export const DEFAULT_CSV_SEPARATOR: CsvSeparator = ';';
export const UTF8_BOM = '\uFEFF';

export type CsvCell = string | number | null;

export function csvCharacter(separator: CsvSeparator): string {
  return separator === 'tab' ? '\t' : separator;
}

/** Decimal mark that goes with a separator. */
export function csvDecimalMark(separator: CsvSeparator): '.' | ',' {
  return separator === ',' ? '.' : ',';
}

function cellText(cell: CsvCell, decimalMark: string): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell).replace('.', decimalMark);
  return cell;
}

// What makes a spreadsheet read a cell as a formula: = + - @ first, also behind blanks or control
// characters it skips, and in the full-width or small forms (＝ ＋ － ＠ ﹦ …) that NFKC folds into them.
const LEADING_BLANKS = /^[\s\p{Cc}]*/u;
const FORMULA_START = /^[=+\-@]/;

/** True for text a spreadsheet could run: a formula start (see above), or a leading TAB or CR (OWASP's list). Numbers stay numbers. */
export function runsAsFormula(text: string): boolean {
  if (text.trim() !== '' && Number.isFinite(Number(text))) return false;
  if (/^[\t\r]/.test(text)) return true;
  const first = text.replace(LEADING_BLANKS, '').codePointAt(0);
  return first !== undefined && FORMULA_START.test(String.fromCodePoint(first).normalize('NFKC'));
}

function quoted(text: string, separator: string): string {
  const guarded = runsAsFormula(text) ? `'${text}` : text;
  return guarded.includes(separator) || /["\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** The whole file: BOM, header and rows, CRLF line ends (what Excel writes). */
export function toCsv(rows: ReadonlyArray<readonly CsvCell[]>, separator: CsvSeparator = DEFAULT_CSV_SEPARATOR): string {
  const character = csvCharacter(separator);
  const decimalMark = csvDecimalMark(separator);
  return (
    UTF8_BOM + rows.map((row) => row.map((cell) => quoted(cellText(cell, decimalMark), character)).join(character)).join('\r\n') + '\r\n'
  );
}

/** Parses what `toCsv` writes (BOM, quotes, CRLF) back into text cells; for tests and imports. */
export function parseCsv(text: string, separator: CsvSeparator = DEFAULT_CSV_SEPARATOR): string[][] {
  const character = csvCharacter(separator);
  const body = text.startsWith(UTF8_BOM) ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let inQuotes = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (inQuotes) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') inQuotes = false;
      else cell += char;
    } else if (char === '"') inQuotes = true;
    else if (char === character) {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && body[i + 1] === '\n') {
      // CRLF: the \n ends the row.
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
