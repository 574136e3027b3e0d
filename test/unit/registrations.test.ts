import { describe, expect, it } from 'vitest';
import { guessMapping, parseBirthDate, parseGender, readRegistrations, registrationKey } from '../../src/domain/registrations.js';

const today = new Date('2026-11-28T12:00:00Z');

describe('registrations read from a spreadsheet', () => {
  it('guesses the columns from German and English headers, each column once', () => {
    expect(guessMapping(['Startnr.', 'Name', 'Vorname', 'Geb.-Datum', 'M/W', 'Verein', 'WK', 'Riege'])).toEqual({
      startNumber: 0,
      lastName: 1,
      firstName: 2,
      birthDate: 3,
      gender: 4,
      club: 5,
      competition: 6,
      squad: 7,
    });
    expect(guessMapping(['First name', 'Last Name', 'Date of birth', 'Club', 'Notes'])).toEqual({
      firstName: 0,
      lastName: 1,
      birthDate: 2,
      club: 3,
    });
  });

  it('reads birth dates as offices write them and refuses what is no real past date', () => {
    expect(parseBirthDate('4.3.2012', today)).toBe('2012-03-04');
    expect(parseBirthDate('2012-03-04', today)).toBe('2012-03-04');
    expect(parseBirthDate('04.03.12', today)).toBe('2012-03-04');
    expect(parseBirthDate('04.03.98', today)).toBe('1998-03-04');
    expect(parseBirthDate('  ', today)).toBeNull();
    for (const bad of ['31.02.2012', '2012/03/04', '04.03.2027', '01.01.1899', 'März 2012'])
      expect(parseBirthDate(bad, today), bad).toBeUndefined();
  });

  it('reads genders in German and English', () => {
    expect(['m', 'männlich', 'Male', '1'].map(parseGender)).toEqual([1, 1, 1, 1]);
    expect(['w', 'weiblich', 'F', 'female', '2'].map(parseGender)).toEqual([2, 2, 2, 2, 2]);
    expect(parseGender('')).toBeNull();
    expect(parseGender('x')).toBeUndefined();
  });

  it('names each row’s problems; the same person twice in one competition is a duplicate, in two it is not', () => {
    const competitions = [
      { id: 5, name: 'Jugend WK' },
      { id: 6, name: 'Kür' },
    ];
    const rows = readRegistrations(
      [
        ['Vorname', 'Nachname', 'Geburtsdatum', 'Verein', 'Wettkampf'],
        ['Lena', 'Adler', '04.03.2012', 'TV', 'jugend wk'],
        ['Lena', 'Adler', '04.03.2012', 'TV', '6'],
        [' lena', 'ADLER ', '2012-03-04', 'tv', 'Jugend WK'],
        ['', 'Berg', '', '', ''],
        ['@SUM(1)', 'Dorn', 'x', 'TV', 'Senioren'],
        ['', '', '', '', ''],
        ['Ida', 'Graf', '', 'TV', 'Kür', 'more cells than headers'],
      ],
      { firstName: 0, lastName: 1, birthDate: 2, club: 3, competition: 4 },
      { competitions, defaultCompetitionId: 5, today },
    );
    expect(rows.map((row) => [row.line, row.registration.competitionId, row.problems])).toEqual([
      [2, 5, []],
      [3, 6, []],
      [4, 5, ['duplicate']],
      [5, 5, ['missing-name']],
      [6, null, ['formula', 'bad-birth-date', 'unknown-competition']],
      [8, 6, []],
    ]);
    expect(registrationKey(rows[0]!.registration)).toBe(registrationKey(rows[2]!.registration));
  });
});
