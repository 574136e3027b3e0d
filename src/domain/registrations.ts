/**
 * Registrations as an office imports them from a spreadsheet (CSV or XLSX, read into text cells
 * elsewhere): which column holds what (guessed from the header row, changed by the office), each
 * row read into a registration, and what is wrong with a row. Cells are data: a cell a spreadsheet
 * would run as a formula is refused, never evaluated or stored.
 *
 * A person is matched by name, birth date and club (`registrationKey`): importing the same file
 * twice finds everyone the first import entered.
 */
import { runsAsFormula } from './csv.js';

export const REGISTRATION_FIELDS = ['firstName', 'lastName', 'birthDate', 'gender', 'club', 'competition', 'startNumber', 'squad'] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];

/** Column index (0-based) per field; a field without a column is left out. */
export type ColumnMapping = Partial<Record<RegistrationField, number>>;

/** The legacy columns' widths (varchar) a value must fit. */
export const REGISTRATION_LIMITS = { name: 100, club: 100, startNumber: 20, squad: 5 } as const;

/** Header names per field, German and English, compared without case, blanks and punctuation. */
const HEADER_NAMES: Record<RegistrationField, readonly string[]> = {
  firstName: ['vorname', 'firstname', 'givenname', 'first'],
  lastName: ['nachname', 'lastname', 'familienname', 'surname', 'name'],
  birthDate: ['geburtsdatum', 'geburtstag', 'geboren', 'geb', 'gebdatum', 'birthdate', 'dateofbirth', 'dob', 'birthday', 'born'],
  gender: ['geschlecht', 'gender', 'sex', 'mw'],
  club: ['verein', 'club', 'verein/club'],
  competition: ['wettkampf', 'competition', 'wk', 'klasse', 'category'],
  startNumber: ['startnummer', 'startnr', 'startno', 'startnumber', 'nr', 'number', 'bib'],
  squad: ['riege', 'squad'],
};

const normalizeHeader = (header: string) =>
  header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** The mapping a header row suggests: each field the first column whose header names it. */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const normalized = headers.map(normalizeHeader);
  const mapping: ColumnMapping = {};
  const taken = new Set<number>();
  for (const field of REGISTRATION_FIELDS) {
    const names = HEADER_NAMES[field].map(normalizeHeader);
    const index = normalized.findIndex((header, column) => !taken.has(column) && header !== '' && names.includes(header));
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

export type RegistrationProblem =
  'missing-name' | 'unknown-competition' | 'bad-birth-date' | 'bad-gender' | 'too-long' | 'formula' | 'duplicate';

export interface Registration {
  firstName: string;
  lastName: string;
  /** ISO date (YYYY-MM-DD), or null when the file gives none. */
  birthDate: string | null;
  /** 1 male, 2 female (the legacy int_geschlecht), null unknown. */
  gender: 1 | 2 | null;
  clubName: string | null;
  competitionId: number | null;
  startNumber: string | null;
  squadName: string | null;
}

export interface RegistrationRow {
  /** Line of the file (1 = the header). */
  line: number;
  registration: Registration;
  problems: RegistrationProblem[];
}

export interface CompetitionName {
  id: number;
  name: string | null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * A birth date as offices write it: 28.11.2012 (also 28.11.12 as 20xx/19xx, whichever is not in
 * the future), 2012-11-28; null for an empty cell, undefined when it reads as no real date.
 */
export function parseBirthDate(text: string, today: Date = new Date()): string | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  let year: number;
  let month: number;
  let day: number;
  let match = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(trimmed);
  if (match) {
    [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (match[3]!.length === 2) year += year + 2000 > today.getUTCFullYear() ? 1900 : 2000;
  } else if ((match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed))) {
    [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (year < 1900 || date.getTime() > today.getTime()) return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** m/männlich/male/1 → 1, w/weiblich/f/female/2 → 2, empty → null; undefined when unknown. */
export function parseGender(text: string): 1 | 2 | null | undefined {
  if (text.trim() === '') return null;
  const value = text.trim() === '1' || text.trim() === '2' ? text.trim() : normalizeHeader(text);
  if (['m', 'mannlich', 'maennlich', 'male', 'man', 'h', 'herr', '1'].includes(value)) return 1;
  if (['w', 'weiblich', 'f', 'female', 'woman', 'frau', '2'].includes(value)) return 2;
  return undefined;
}

/** The competition a cell names: its name (any case), or its id. */
function competitionOf(text: string, competitions: readonly CompetitionName[]): number | null {
  const wanted = text.trim().toLowerCase();
  const byName = competitions.find((competition) => (competition.name ?? '').trim().toLowerCase() === wanted);
  if (byName) return byName.id;
  const byId = /^\d+$/.test(wanted) ? competitions.find((competition) => competition.id === Number(wanted)) : undefined;
  return byId?.id ?? null;
}

/** The key a person is matched by: first and last name, birth date and club, without case or outer blanks. */
export function registrationKey(registration: Pick<Registration, 'firstName' | 'lastName' | 'birthDate' | 'clubName'>): string {
  return [registration.firstName, registration.lastName, registration.birthDate ?? '', registration.clubName ?? '']
    .map((part) => part.trim().toLowerCase())
    .join('\u0000');
}

export interface ReadRegistrationsOptions {
  competitions: readonly CompetitionName[];
  /** For rows whose competition cell is empty or unmapped. */
  defaultCompetitionId?: number | null;
  today?: Date;
}

/** The data rows (after the header) read with the mapping; blank rows are left out. */
export function readRegistrations(
  rows: ReadonlyArray<readonly string[]>,
  mapping: ColumnMapping,
  options: ReadRegistrationsOptions,
): RegistrationRow[] {
  const seen = new Set<string>();
  const read: RegistrationRow[] = [];
  rows.slice(1).forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    const cell = (field: RegistrationField) => {
      const column = mapping[field];
      return column === undefined ? '' : (cells[column] ?? '').trim();
    };
    const problems = new Set<RegistrationProblem>();
    const text = (field: RegistrationField, limit: number) => {
      const value = cell(field);
      if (runsAsFormula(value)) problems.add('formula');
      if (value.length > limit) problems.add('too-long');
      return value;
    };
    const firstName = text('firstName', REGISTRATION_LIMITS.name);
    const lastName = text('lastName', REGISTRATION_LIMITS.name);
    const clubName = text('club', REGISTRATION_LIMITS.club);
    const startNumber = text('startNumber', REGISTRATION_LIMITS.startNumber);
    const squadName = text('squad', REGISTRATION_LIMITS.squad);
    if (firstName === '' || lastName === '') problems.add('missing-name');
    const birthDate = parseBirthDate(cell('birthDate'), options.today);
    if (birthDate === undefined) problems.add('bad-birth-date');
    const gender = parseGender(cell('gender'));
    if (gender === undefined) problems.add('bad-gender');
    const competitionCell = cell('competition');
    const competitionId =
      competitionCell === '' ? (options.defaultCompetitionId ?? null) : competitionOf(competitionCell, options.competitions);
    if (competitionId === null) problems.add('unknown-competition');
    const registration: Registration = {
      firstName,
      lastName,
      birthDate: birthDate ?? null,
      gender: gender ?? null,
      clubName: clubName === '' ? null : clubName,
      competitionId,
      startNumber: startNumber === '' ? null : startNumber,
      squadName: squadName === '' ? null : squadName,
    };
    // The same person twice in one competition: the later row is the duplicate.
    const key = `${registrationKey(registration)}\u0000${competitionId ?? ''}`;
    if (problems.size === 0 && seen.has(key)) problems.add('duplicate');
    seen.add(key);
    read.push({ line: index + 2, registration, problems: [...problems] });
  });
  return read;
}
