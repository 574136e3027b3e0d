/**
 * Rows and steps the office browser tests share: an event planned into squads, group candidates
 * of two clubs, and signing in by pasting a token as an office user does.
 */
import type { Page } from 'playwright-core';
import type { Pool } from '../../../src/db/pool.js';
import type { GenerateResponse } from '../../../web/office/office-api.js';
import { t } from '../../support/tables.js';
import { insertRow, createCompetition, insertParticipant, insertScoreRow, type Competition } from '../../support/fixtures.js';

export const officeUrl = (baseUrl: string, view: string, query: Record<string, number> = {}) =>
  `${baseUrl}/office/?${new URLSearchParams({ view, ...Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)])) })}`;

/** Clicks "generate" in the auto-assign dialog and answers what the server proposed, once the proposals show. */
export async function generateProposals(page: Page): Promise<GenerateResponse> {
  const response = page.waitForResponse((candidate) => candidate.url().endsWith('/api/squad-management/auto-assign/generate'));
  await page.click('#generate-proposals');
  const generated = (await (await response).json()) as GenerateResponse;
  await page.locator('#auto-assign[data-step="proposals"]').waitFor();
  return generated;
}

/** Opens an office page by its navigation link, opening the link's group menu first where it is closed. */
export async function openOfficeView(page: Page, view: string): Promise<void> {
  const link = page.locator(`nav a[data-view="${view}"]`);
  if (!(await link.isVisible())) await page.click(`nav .nav-group:has(a[data-view="${view}"]) > button`);
  await link.click();
  await page.locator(`nav a[data-view="${view}"][aria-current="page"]`).waitFor({ state: 'attached' });
}

/** Pastes the token into the sign-in dialog and waits until the header names the signed-in user. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.click('#sign-in');
  await page.fill('#token-input', token);
  await page.keyboard.press('Enter');
  await page.locator('#signed-in-as').waitFor();
}

export interface SquadEvent {
  competition: Competition;
  participantIds: number[];
  /** Score rows of the event (one per participant, plus a second competition for two of them). */
  scoreIds: number[];
}

/**
 * Ten participants of two clubs (six female, four male) with birth dates, each with a score row
 * naming the old squad "ALT"; two of them also start in a second competition of the event.
 */
export async function seedSquadEvent(pool: Pool, name: string): Promise<SquadEvent> {
  const competition = await createCompetition(pool, name, '2031-06-01');
  const otherClub = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'SV Nord' });
  const secondCompetition = await insertRow(pool, 'wettkaempfe', 'int_wettkaempfeid', {
    int_veranstaltungenid: competition.eventId,
    var_name: `${name} Finale`,
  });
  const people: Array<[string, string, number, number, string]> = [
    ['Anna', 'Adler', 2, competition.clubId, '2020-03-01'],
    ['Berta', 'Bach', 2, competition.clubId, '2019-05-10'],
    ['Clara', 'Cramer', 2, competition.clubId, '2016-01-20'],
    ['Doris', 'Dorn', 2, otherClub, '2015-07-07'],
    ['Emma', 'Eck', 2, otherClub, '2021-02-02'],
    ['Frida', 'Fuchs', 2, otherClub, '2018-09-09'],
    ['Georg', 'Graf', 1, competition.clubId, '2017-04-04'],
    ['Hans', 'Huber', 1, competition.clubId, '2016-11-11'],
    ['Ida', 'Imhof', 1, otherClub, '2019-12-12'],
    ['Jan', 'Jäger', 1, otherClub, '2020-08-08'],
  ];
  const participantIds: number[] = [];
  const scoreIds: number[] = [];
  for (const [firstName, lastName, gender, clubId, birthDate] of people) {
    const id = await insertParticipant(pool, competition, {
      firstName,
      lastName,
      gender,
      clubId,
      birthDate,
      startNumber: String(participantIds.length + 1),
    });
    participantIds.push(id);
    scoreIds.push(await insertScoreRow(pool, competition, id, { squadName: 'ALT' }));
  }
  for (const id of participantIds.slice(0, 2)) {
    scoreIds.push(await insertScoreRow(pool, { ...competition, competitionId: secondCompetition }, id, { squadName: 'ALT' }));
  }
  return { competition, participantIds, scoreIds };
}

/** The squad name of every score row of the event, by participant. */
export async function squadNamesOfEvent(pool: Pool, eventId: number): Promise<Map<number, string[]>> {
  const { rows } = await pool.query<{ participantId: number; squad: string | null }>(
    `SELECT w.int_teilnehmerid AS "participantId", w.var_riege AS squad
       FROM ${t.wertungen} w JOIN ${t.wettkaempfe} c ON c.int_wettkaempfeid = w.int_wettkaempfeid
      WHERE c.int_veranstaltungenid = $1 ORDER BY w.int_wertungenid`,
    [eventId],
  );
  const byParticipant = new Map<number, string[]>();
  for (const row of rows) byParticipant.set(row.participantId, [...(byParticipant.get(row.participantId) ?? []), row.squad ?? '']);
  return byParticipant;
}

export interface GroupEvent {
  eventId: number;
  otherEventId: number;
  clubA: number;
  clubB: number;
  /** Group of club A, and a second group of club B. */
  groupA: number;
  groupB: number;
  otherEventGroup: number;
  /** Group-type participants: A1 and B1 are planned (they have a score row), A2 and B2 are not. */
  people: { A1: number; A2: number; B1: number; B2: number; otherEvent: number };
}

export async function seedGroupEvent(pool: Pool): Promise<GroupEvent> {
  const competition = await createCompetition(pool, 'Gruppen-Cup');
  const otherCompetition = await createCompetition(pool, 'Zweites Fest');
  const clubA = competition.clubId;
  const clubB = await insertRow(pool, 'vereine', 'int_vereineid', { var_name: 'SC Berg' });
  const group = (eventId: number, name: string, clubId: number, startNumber: number) =>
    insertRow(pool, 'gruppen', 'int_gruppenid', {
      int_veranstaltungenid: eventId,
      var_name: name,
      int_startnummer: startNumber,
      int_vereineid: clubId,
    });
  const member = async (target: Competition, lastName: string, clubId: number, planned: boolean) => {
    const id = await insertRow(pool, 'teilnehmer', 'int_teilnehmerid', {
      var_vorname: 'Gina',
      var_nachname: lastName,
      var_startnummer: lastName.slice(-2),
      int_vereineid: clubId,
      int_eventid: target.eventId,
      var_typ: 'Gruppe',
      int_geschlecht: 2,
      dat_geburtstag: '2014-05-05',
    });
    if (planned) await insertScoreRow(pool, target, id);
    return id;
  };
  // Groups are listed by start number, so group A comes first although its name sorts last.
  const groupA = await group(competition.eventId, 'Sonnengruppe', clubA, 1);
  const groupB = await group(competition.eventId, 'Berggruppe', clubB, 2);
  const otherEventGroup = await group(otherCompetition.eventId, 'Festgruppe', otherCompetition.clubId, 1);
  const people = {
    A1: await member(competition, 'Alpha-A1', clubA, true),
    A2: await member(competition, 'Beta-A2', clubA, false),
    B1: await member(competition, 'Gamma-B1', clubB, true),
    B2: await member(competition, 'Delta-B2', clubB, false),
    otherEvent: await member(otherCompetition, 'Omega-X9', otherCompetition.clubId, false),
  };
  // An individual participant of the same event: never a group candidate (var_typ is not Gruppe).
  await insertParticipant(pool, competition, { lastName: 'Einzeln', clubId: clubA });
  return { eventId: competition.eventId, otherEventId: otherCompetition.eventId, clubA, clubB, groupA, groupB, otherEventGroup, people };
}
