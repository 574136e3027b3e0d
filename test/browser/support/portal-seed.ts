/**
 * Rows the browser tests score against, made with SQL through the shared fixture helpers. Every
 * call makes its own event, so tests sharing a database never see each other's participants.
 */
import type { Pool } from '../../../src/db/pool.js';
import { t } from '../../support/tables.js';
import { insertField, insertParticipant, insertRow, insertScoreRow, type Competition } from '../../support/fixtures.js';

export interface Device {
  id: number;
  name: string;
  fields: { A: number; B: number; C: number; final: number };
}

export interface Competitor {
  participantId: number;
  scoreId: number;
  firstName: string;
  lastName: string;
  startNumber: string;
}

/**
 * A device with fields A (sort 1), B (2), C (3) and a final field (4), inserted in reverse so id
 * order and sort order differ, as in legacy data.
 */
export async function seedDevice(
  pool: Pool,
  options: { name: string; mask?: string | null; decimals?: number | null; formula?: string },
): Promise<Device> {
  const id = await insertRow(pool, 'disziplinen', 'int_disziplinenid', {
    var_name: options.name,
    var_formel: options.formula ?? 'A + B - C',
    var_eingabemaske: options.mask ?? null,
    int_berechnung: options.decimals ?? null,
  });
  const field = (name: string, sort: number, extra: Record<string, unknown> = {}) =>
    insertField(pool, id, { name, sort, sortColumns: ['int_sortierung'], extra });
  const final = await field('Final score', 4, { bol_endwert: true });
  const C = await field('Penalty', 3);
  const B = await field('Execution', 2);
  const A = await field('Difficulty', 1, { bol_ausgangswert: true });
  return { id, name: options.name, fields: { A, B, C, final } };
}

/** Participants of the competition's event, each with a score row (so GET /api/scores lists them). */
export async function seedCompetitors(
  pool: Pool,
  competition: Competition,
  people: ReadonlyArray<readonly [firstName: string, lastName: string]>,
): Promise<Competitor[]> {
  const competitors: Competitor[] = [];
  for (const [index, [firstName, lastName]] of people.entries()) {
    const startNumber = String(index + 1);
    const participantId = await insertParticipant(pool, competition, { firstName, lastName, startNumber });
    competitors.push({ participantId, scoreId: await insertScoreRow(pool, competition, participantId), firstName, lastName, startNumber });
  }
  return competitors;
}

/** Score rows of one participant, and the detail rows of each in one device: "arrived exactly once". */
export async function storedRows(
  pool: Pool,
  participantId: number,
  disciplineId: number,
): Promise<{ scoreRows: number; details: Array<{ scoreId: number; value: number | null }> }> {
  const { rows } = await pool.query<{ scoreRows: number; details: Array<{ scoreId: number; value: number | null }> }>(
    `SELECT (SELECT count(*) FROM ${t.wertungen} WHERE int_teilnehmerid = $1)::int AS "scoreRows",
            COALESCE((SELECT json_agg(json_build_object('scoreId', d.int_wertungenid, 'value', d.rel_leistung) ORDER BY d.int_wertungen_detailsid)
                        FROM ${t.wertungen_details} d JOIN ${t.wertungen} w ON w.int_wertungenid = d.int_wertungenid
                       WHERE w.int_teilnehmerid = $1 AND d.int_disziplinenid = $2), '[]'::json) AS details`,
    [participantId, disciplineId],
  );
  return rows[0]!;
}
