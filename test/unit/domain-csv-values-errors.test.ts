/** src/domain/csv.ts, stored-value.ts, errors.ts and an all-around edge case, without a database. */
import { describe, expect, it } from 'vitest';
import { csvCharacter, csvDecimalMark, parseCsv, toCsv, UTF8_BOM } from '../../src/domain/csv.js';
import { conflict, DomainError, notFound, StaleValueError, unavailable, validationFailed } from '../../src/domain/errors.js';
import { rankAllAround } from '../../src/domain/all-around.js';
import { sameStoredValue } from '../../src/domain/stored-value.js';

describe('toCsv', () => {
  it('writes a BOM, CRLF line ends, a decimal comma with ; and tab, a point with ,', () => {
    expect(
      toCsv([
        ['Name', 'Score'],
        ['Anna', 13.45],
        ['Ben', null],
      ]),
    ).toBe(`${UTF8_BOM}Name;Score\r\nAnna;13,45\r\nBen;\r\n`);
    expect(toCsv([['a', 1.5]], ',')).toBe(`${UTF8_BOM}a,1.5\r\n`);
    expect(toCsv([['a', 1.5]], 'tab')).toBe(`${UTF8_BOM}a\t1,5\r\n`);
    expect(toCsv([['v1.2', 'a.b.c']], ';')).toBe(`${UTF8_BOM}v1.2;a.b.c\r\n`);
    expect(csvCharacter('tab')).toBe('\t');
    expect(csvCharacter(';')).toBe(';');
    expect(csvDecimalMark(',')).toBe('.');
    expect(csvDecimalMark('tab')).toBe(',');
  });

  it('quotes cells holding the separator, a quote, CR or LF, and doubles quotes', () => {
    expect(toCsv([['a;b', 'say "hi"', 'two\nlines', 'cr\rhere', 'plain, comma']])).toBe(
      `${UTF8_BOM}"a;b";"say ""hi""";"two\nlines";"cr\rhere";plain, comma\r\n`,
    );
    expect(toCsv([['plain, comma']], ',')).toBe(`${UTF8_BOM}"plain, comma"\r\n`);
  });

  it('defuses text a spreadsheet would run as a formula, but not negative numbers', () => {
    expect(toCsv([['=SUM(A1)', '+1+2x', '-cmd', '@x', '-3', -3, 'a=b']])).toBe(`${UTF8_BOM}'=SUM(A1);'+1+2x;'-cmd;'@x;-3;-3;a=b\r\n`);
  });

  it('defuses a formula behind a TAB, CR, space or in full-width and small forms', () => {
    const hostile = [
      '\t=1+1',
      '\r=1+1',
      ' =HYPERLINK("x")',
      '\u00a0 @SUM(A1)',
      '＝1+1',
      '＋1',
      '－cmd',
      '＠SUM(A1)',
      '﹦1',
      ' ＝1',
      '\tAnna',
      '\u0000=1',
    ];
    const [row] = parseCsv(toCsv([hostile]));
    expect(row).toEqual(hostile.map((text) => `'${text}`));
  });

  it('leaves names with inner or trailing signs, leading blanks before letters, and numbers with blanks alone', () => {
    const harmless = [' Anna', 'Müller-Lüdenscheidt', 'a@b.de', 'x=1', ' -3', '1e3', '', '　Anna'];
    const [row] = parseCsv(toCsv([harmless]));
    expect(row).toEqual(harmless);
  });
});

describe('parseCsv', () => {
  it('reads back what toCsv writes', () => {
    const rows = [
      ['Name', 'Note'],
      ['Anna', 'say "hi"; bye'],
      ['Ben', 'two\r\nlines'],
      ['', 'x'],
    ];
    for (const separator of [';', ',', 'tab'] as const) expect(parseCsv(toCsv(rows, separator), separator)).toEqual(rows);
  });

  it('reads text without a BOM, bare LF line ends and a last line without an end', () => {
    expect(parseCsv('a;b\nc;d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a;\n')).toEqual([['a', '']]);
    expect(parseCsv('a;')).toEqual([['a', '']]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('x\ry')).toEqual([['x\ry']]);
  });
});

describe('sameStoredValue', () => {
  it('compares as the float4 the legacy columns hold, null only with null', () => {
    expect(sameStoredValue(13.45, Math.fround(13.45))).toBe(true);
    expect(sameStoredValue(13.45, 13.46)).toBe(false);
    expect(sameStoredValue(null, null)).toBe(true);
    expect(sameStoredValue(null, 0)).toBe(false);
    expect(sameStoredValue(0, null)).toBe(false);
    expect(sameStoredValue(1e-10, 0)).toBe(true);
    expect(sameStoredValue(1e-9, -1e-9)).toBe(false);
    expect(sameStoredValue(1e300, 1e300 * (1 + 1e-15))).toBe(true);
  });
});

describe('domain errors', () => {
  it('carry their kind and the message for the client', () => {
    for (const [make, kind] of [
      [notFound, 'not-found'],
      [validationFailed, 'validation-failed'],
      [conflict, 'conflict'],
      [unavailable, 'unavailable'],
    ] as const) {
      const error = make('what went wrong');
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind, message: 'what went wrong', name: 'DomainError' });
    }
    const stale = new StaleValueError('changed meanwhile', 12.5);
    expect(stale).toBeInstanceOf(DomainError);
    expect(stale).toMatchObject({ kind: 'conflict', current: 12.5, message: 'changed meanwhile' });
  });
});

describe('all-around completeness', () => {
  // A surviving mutant of the measured run (docs/testing.md): an entry without any discipline
  // counted as complete.
  it('counts an entry without any scores as incomplete', () => {
    expect(rankAllAround([{ scores: [], outOfCompetition: false }], 'none')[0]).toMatchObject({ complete: false, total: 0 });
  });
});
