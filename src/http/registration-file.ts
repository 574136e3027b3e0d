/**
 * An uploaded registrations file as rows of text cells: XLSX through exceljs (its first worksheet),
 * anything else as CSV (UTF-8, else Windows-1252 as older Excel writes it; separator `;`, `,` or
 * tab, whichever the header line has most of). A formula cell comes back as its formula text
 * (`=…`), so the import refuses it instead of trusting a cached result.
 */
import ExcelJS from 'exceljs';
import { parseCsv, type CsvSeparator } from '../domain/csv.js';
import { validationFailed } from '../domain/errors.js';

/** More rows than any competition registers; keeps a bad upload from tying up the server. */
export const MAX_REGISTRATION_ROWS = 5_000;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function csvRows(bytes: Buffer): string[][] {
  const text = decodeText(bytes).replace(/^\uFEFF/, '');
  const header = text.split(/\r?\n/, 1)[0] ?? '';
  const counts: Array<[CsvSeparator, number]> = [
    [';', header.split(';').length],
    [',', header.split(',').length],
    ['tab', header.split('\t').length],
  ];
  const separator = counts.reduce((best, candidate) => (candidate[1] > best[1] ? candidate : best))[0];
  return parseCsv(text, separator);
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return isoDate(value);
  if (typeof value !== 'object') return String(value);
  if ('formula' in value || 'sharedFormula' in value) return `=${'formula' in value ? value.formula : value.sharedFormula}`;
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value) return typeof value.text === 'string' ? value.text : cellText(value.text);
  if ('error' in value) return String(value.error);
  return '';
}

async function xlsxRows(bytes: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw validationFailed('body.content: not a readable XLSX file');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    if (rowNumber > MAX_REGISTRATION_ROWS + 1) return;
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    rows[rowNumber - 1] = Array.from(cells, (cell) => cell ?? '');
  });
  return Array.from(rows, (row) => row ?? []);
}

/** The file's rows (the first is the header). */
export async function readRegistrationFile(base64: string): Promise<string[][]> {
  const bytes = Buffer.from(base64, 'base64');
  const isZip = ZIP_MAGIC.every((byte, index) => bytes[index] === byte);
  const rows = isZip ? await xlsxRows(bytes) : csvRows(bytes);
  if (rows.length > MAX_REGISTRATION_ROWS + 1)
    throw validationFailed(`body.content: more than ${MAX_REGISTRATION_ROWS} rows; split the file`);
  return rows;
}
