/**
 * Late entries and imported registrations (admin): each registration becomes a participant of the
 * event (`teilnehmer`, reused when name, birth date and club match one) with a score row in its
 * competition (`wertungen`, status 1, round 1, as the desktop program enters a gymnast) and an
 * empty detail row per apparatus the competition's gymnasts are planned on (the event's, while
 * the competition has none), so portals, boards and the rotation plan count the entry. What exists
 * already is left as it is: entering the same registrations again changes nothing. A fixed number
 * of statements, whatever the row count, under the event's registration lock.
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound } from '../src/domain/errors.js';
import { registrationKey, type Registration } from '../src/domain/registrations.js';
import { selectRegistrationContext, selectRegistrationMatches } from '../src/model/registration-match.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { participantsChanged } from '../outbox/events.js';

export interface EnteredRegistrations {
  eventId: number;
  clubsCreated: number;
  participantsCreated: number;
  entriesCreated: number;
  /** Registrations that were entered already. */
  unchanged: number;
  /** Per registration (in order) its participant and score row. */
  entries: Array<{ participantId: number; scoreId: number; created: boolean }>;
}

/** Two imports of one event wait for each other, so the second sees what the first entered. */
async function lockEventRegistrations(tx: TxClient, eventId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${tx.tables.teilnehmer}:registrations:${eventId}`]);
}

async function insertClubs(tx: TxClient, names: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ id: number; name: string }>(
    `INSERT INTO ${tx.tables.vereine} (var_name)
     SELECT DISTINCT ON (lower(btrim(n))) btrim(n) FROM unnest($1::text[]) AS n ORDER BY lower(btrim(n))
     RETURNING int_vereineid AS id, var_name AS name`,
    [names],
  );
  return new Map(rows.map((row) => [row.name.trim().toLowerCase(), row.id]));
}

/** New participants of the event; a missing start number gets the next after the event's highest. */
async function insertParticipants(
  tx: TxClient,
  eventId: number,
  people: ReadonlyArray<{ registration: Registration; clubId: number | null }>,
): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>(
    `WITH input AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::date[], $5::int[], $6::int[], $7::text[])
                WITH ORDINALITY AS i(first_name, last_name, birth_date, club_id, gender, start_number, ord)
     ), highest AS (
       SELECT COALESCE(max(var_startnummer::bigint) FILTER (WHERE var_startnummer ~ '^[0-9]{1,9}$'), 0) AS n
         FROM ${tx.tables.teilnehmer} WHERE int_eventid = $1
     ), numbered AS (
       SELECT i.*, COALESCE(i.start_number,
                            ((SELECT n FROM highest) + count(*) FILTER (WHERE i.start_number IS NULL) OVER (ORDER BY i.ord))::text) AS number
         FROM input i
     ), inserted AS (
       INSERT INTO ${tx.tables.teilnehmer} (var_vorname, var_nachname, dat_geburtstag, int_vereineid, int_geschlecht, var_startnummer, int_eventid)
       SELECT first_name, last_name, birth_date, club_id, gender, number, $1 FROM numbered ORDER BY ord
       RETURNING int_teilnehmerid AS id
     )
     SELECT id FROM inserted ORDER BY id`,
    [
      eventId,
      people.map(({ registration }) => registration.firstName),
      people.map(({ registration }) => registration.lastName),
      people.map(({ registration }) => registration.birthDate),
      people.map(({ clubId }) => clubId),
      people.map(({ registration }) => registration.gender),
      people.map(({ registration }) => registration.startNumber),
    ],
  );
  // Sequence values rise in insert order, which is the input's order.
  return rows.map((row) => row.id);
}

/** Score rows for the new entries, with their empty detail rows; ids in input order. */
async function insertEntries(
  tx: TxClient,
  eventId: number,
  entries: ReadonlyArray<{ participantId: number; competitionId: number; squadName: string | null }>,
): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>(
    `WITH input AS (
       SELECT * FROM unnest($2::int[], $3::int[], $4::text[]) WITH ORDINALITY AS i(participant_id, competition_id, squad, ord)
     ), created AS (
       INSERT INTO ${tx.tables.wertungen} (int_wettkaempfeid, int_teilnehmerid, int_statusid, int_runde, int_startnummer, var_riege)
       SELECT i.competition_id, i.participant_id, 1, 1,
              CASE WHEN p.var_startnummer ~ '^[0-9]{1,9}$' THEN p.var_startnummer::int END, i.squad
         FROM input i JOIN ${tx.tables.teilnehmer} p ON p.int_teilnehmerid = i.participant_id
        ORDER BY i.ord
       RETURNING int_wertungenid AS id, int_wettkaempfeid AS competition_id
     ), event_devices AS (
       SELECT DISTINCT w.int_wettkaempfeid AS competition_id, d.int_disziplinenid AS discipline_id
         FROM ${tx.tables.wettkaempfe} c
         JOIN ${tx.tables.wertungen} w ON w.int_wettkaempfeid = c.int_wettkaempfeid AND w.int_teilnehmerid IS NOT NULL
         JOIN ${tx.tables.wertungen_details} d ON d.int_wertungenid = w.int_wertungenid
        WHERE c.int_veranstaltungenid = $1
     ), details AS (
       INSERT INTO ${tx.tables.wertungen_details} (int_wertungenid, int_disziplinenid, int_versuch, int_kp)
       SELECT c.id, devices.discipline_id, 1, 0
         FROM created c
        CROSS JOIN LATERAL (
          SELECT e.discipline_id FROM event_devices e WHERE e.competition_id = c.competition_id
          UNION
          SELECT DISTINCT e.discipline_id FROM event_devices e
           WHERE NOT EXISTS (SELECT 1 FROM event_devices own WHERE own.competition_id = c.competition_id)
        ) AS devices
       RETURNING 1
     )
     SELECT id FROM created ORDER BY id`,
    [
      eventId,
      entries.map((entry) => entry.participantId),
      entries.map((entry) => entry.competitionId),
      entries.map((entry) => entry.squadName),
    ],
  );
  return rows.map((row) => row.id);
}

export async function insertParticipantAudit(
  tx: TxClient,
  record: {
    eventId: number;
    actor: string;
    action: 'late-entry' | 'import' | 'did-not-start' | 'out-of-competition';
    participantIds: readonly number[];
    scoreIds: readonly number[];
    details: Record<string, unknown>;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO ${tx.tables.svc_participant_audit} (event_id, actor, action, participant_ids, score_ids, details)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [record.eventId, record.actor, record.action, record.participantIds, record.scoreIds, JSON.stringify(record.details)],
  );
}

/** Registrations must name a competition of the event (the route and the import's reading check it). */
export async function enterRegistrations(
  tx: TxClient,
  eventId: number,
  registrations: readonly Registration[],
  action: 'late-entry' | 'import',
  actor: string,
): Promise<EnteredRegistrations> {
  await lockEventRegistrations(tx, eventId);
  const context = await selectRegistrationContext(tx, eventId);
  if (!context.eventFound) throw notFound(`No event ${eventId}`);
  const matches = await selectRegistrationMatches(tx, eventId, registrations);

  const clubName = (registration: Registration) => registration.clubName?.trim().toLowerCase() ?? null;
  const newClubs = registrations.filter((registration, index) => registration.clubName !== null && matches[index]!.clubId === null);
  const clubs =
    newClubs.length > 0
      ? await insertClubs(
          tx,
          newClubs.map((registration) => registration.clubName!),
        )
      : new Map();
  const clubIdOf = (index: number) =>
    matches[index]!.clubId ?? (clubName(registrations[index]!) === null ? null : clubs.get(clubName(registrations[index]!)!)!);

  // A person named twice (two competitions) is created once.
  const newPeople = new Map<string, number>();
  registrations.forEach((registration, index) => {
    const key = registrationKey(registration);
    if (matches[index]!.participantId === null && !newPeople.has(key)) newPeople.set(key, index);
  });
  const people = [...newPeople.values()].map((index) => ({ registration: registrations[index]!, clubId: clubIdOf(index) }));
  const createdIds = people.length > 0 ? await insertParticipants(tx, eventId, people) : [];
  const createdByKey = new Map([...newPeople.keys()].map((key, position) => [key, createdIds[position]!]));
  const participantOf = (index: number) => matches[index]!.participantId ?? createdByKey.get(registrationKey(registrations[index]!))!;

  const newEntries = new Map<string, number>();
  registrations.forEach((registration, index) => {
    const key = `${participantOf(index)}:${registration.competitionId}`;
    if (matches[index]!.scoreId === null && !newEntries.has(key)) newEntries.set(key, index);
  });
  const entryInput = [...newEntries.values()].map((index) => ({
    participantId: participantOf(index),
    competitionId: registrations[index]!.competitionId!,
    squadName: registrations[index]!.squadName,
  }));
  const scoreIds = entryInput.length > 0 ? await insertEntries(tx, eventId, entryInput) : [];
  const createdScores = new Map([...newEntries.keys()].map((key, position) => [key, scoreIds[position]!]));

  const entries = registrations.map((registration, index) => {
    const participantId = participantOf(index);
    const existing = matches[index]!.scoreId;
    return {
      participantId,
      scoreId: existing ?? createdScores.get(`${participantId}:${registration.competitionId}`)!,
      created: existing === null,
    };
  });
  if (scoreIds.length > 0) {
    await insertParticipantAudit(tx, {
      eventId,
      actor,
      action,
      participantIds: createdIds,
      scoreIds,
      details: { clubsCreated: clubs.size, participantsCreated: createdIds.length, entriesCreated: scoreIds.length },
    });
    void appendOutboxEvent(tx, participantsChanged({ eventId, change: 'entries', scoreIds, by: actor }));
  }
  return {
    eventId,
    clubsCreated: clubs.size,
    participantsCreated: createdIds.length,
    entriesCreated: scoreIds.length,
    unchanged: entries.filter((entry) => !entry.created).length,
    entries,
  };
}
