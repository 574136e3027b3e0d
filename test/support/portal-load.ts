/**
 * Jury portals saving scores over HTTP while a fault happens, and the check of what a save's
 * answer promises: a 2xx save is stored with its value; a save that got no answer, or a 503 (the
 * connection may have gone during COMMIT), is stored completely or not at all; any other failure
 * changed nothing. "Completely" means the command's legacy rows and its outbox row together.
 */
import type { Pool } from '../../src/db/pool.js';
import { t } from './tables.js';
import { createCompetition, insertDiscipline, insertParticipantsWithScoreRows, type Competition, type Discipline } from './fixtures.js';

export interface PortalTargets {
  competition: Competition;
  discipline: Discipline;
  /** Each portal saves only its own scores, one after the other, so no two saves race on one row. */
  scoresByPortal: number[][];
}

export async function createPortalTargets(pool: Pool, portals: number, scoresPerPortal: number): Promise<PortalTargets> {
  const competition = await createCompetition(pool, 'Fault drill');
  const discipline = await insertDiscipline(pool);
  const scoreIds = await insertParticipantsWithScoreRows(pool, competition, portals * scoresPerPortal, 'R1');
  const scoresByPortal = Array.from({ length: portals }, (_, portal) =>
    scoreIds.slice(portal * scoresPerPortal, (portal + 1) * scoresPerPortal),
  );
  return { competition, discipline, scoresByPortal };
}

/** `jury`: POST /api/jury-results (field A); `value`: POST /api/scores/save-value. Each at most once per score. */
export type SaveKind = 'jury' | 'value';

// Exact in float4 (the legacy `real` columns) and distinct between neighbouring scores.
export const juryValueOf = (scoreId: number) => (scoreId % 9) + 0.5;
export const finalValueOf = (scoreId: number) => (scoreId % 13) + 0.25;

export interface SaveOutcome {
  scoreId: number;
  kind: SaveKind;
  /** HTTP status, or null when no answer came (refused, reset, timed out). */
  status: number | null;
  body: unknown;
  error?: string;
  /** Milliseconds since the load started. */
  sentAt: number;
  answeredAt: number;
}

export interface PortalLoad {
  readonly outcomes: readonly SaveOutcome[];
  /** Saves answered 2xx so far. */
  succeeded(): number;
  /** Stops sending new saves; resolves with every outcome once the saves in flight have settled. */
  stop(): Promise<SaveOutcome[]>;
}

/**
 * One save as a portal sends it. `sentAt`/`answeredAt` count from `clock` (default: now), so the
 * outcomes of one load share a time line.
 */
export async function sendSave(
  baseUrl: string,
  targets: PortalTargets,
  scoreId: number,
  kind: SaveKind,
  options: { clock?: number; timeoutMs?: number } = {},
): Promise<SaveOutcome> {
  const clock = options.clock ?? performance.now();
  const [path, body] =
    kind === 'jury'
      ? [
          '/api/jury-results',
          { participantId: scoreId, disciplineFieldId: targets.discipline.fields.A, performance: juryValueOf(scoreId), attempt: 1 },
        ]
      : [
          '/api/scores/save-value',
          {
            competitionId: targets.competition.competitionId,
            participantId: scoreId,
            disciplineId: targets.discipline.id,
            score: finalValueOf(scoreId),
          },
        ];
  const sentAt = performance.now() - clock;
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text: the checks report a body that is not JSON
    }
    return { scoreId, kind, status: response.status, body: parsed, sentAt, answeredAt: performance.now() - clock };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      scoreId,
      kind,
      status: null,
      body: null,
      error: `${(error as Error).name}${cause ? ` ${cause}` : ''}`,
      sentAt,
      answeredAt: performance.now() - clock,
    };
  }
}

// A portal whose save failed waits this long before its next one, as a real one retrying would;
// without it a portal runs through its whole list in the moment the server or database is away.
const PAUSE_AFTER_FAILURE_MS = 100;

/** Starts one portal per list of `targets.scoresByPortal`: jury result, then final score, for each score in turn. */
export function startPortals(baseUrl: string, targets: PortalTargets): PortalLoad {
  const outcomes: SaveOutcome[] = [];
  const clock = performance.now();
  let stopping = false;
  let succeeded = 0;

  const portal = async (scoreIds: readonly number[]) => {
    for (const scoreId of scoreIds) {
      for (const kind of ['jury', 'value'] as const) {
        if (stopping) return;
        const outcome = await sendSave(baseUrl, targets, scoreId, kind, { clock });
        outcomes.push(outcome);
        if (outcome.status !== null && outcome.status < 300) succeeded += 1;
        else await new Promise((resolve) => setTimeout(resolve, PAUSE_AFTER_FAILURE_MS));
      }
    }
  };
  const running = Promise.all(targets.scoresByPortal.map(portal));

  return {
    outcomes,
    succeeded: () => succeeded,
    async stop() {
      stopping = true;
      await running;
      return outcomes;
    },
  };
}

interface StoredScore {
  scoreId: number;
  jury: number | null;
  finalJury: number | null;
  detail: number | null;
  juryEvents: number;
  valueEvents: number;
  /** `storedScore` of the save-value event, when there is one. */
  valueEventScore: number | null;
}

// Event 1 (jury-results) carries `formula`, event 2 (save-value) `storedScore` (spec "Events").
async function storedScores(pool: Pool, targets: PortalTargets): Promise<StoredScore[]> {
  const scoreIds = targets.scoresByPortal.flat();
  const { rows } = await pool.query<StoredScore>(
    `WITH events AS (
       SELECT (payload->>'scoreId')::int AS score_id,
              count(*) FILTER (WHERE payload ? 'formula')::int AS jury_events,
              count(*) FILTER (WHERE payload ? 'storedScore')::int AS value_events,
              max((payload->>'storedScore')::float8) AS value_event_score
         FROM ${t.svc_outbox} WHERE topic = 'score-updated' AND payload ? 'scoreId' GROUP BY 1
     ), jury AS (
       SELECT int_wertungenid AS score_id,
              max(rel_leistung) FILTER (WHERE int_disziplinen_felderid = $2) AS jury,
              max(rel_leistung) FILTER (WHERE int_disziplinen_felderid = $3) AS final_jury
         FROM ${t.jury_results} WHERE int_wertungenid = ANY($1::int[]) AND int_versuch = 1 GROUP BY 1
     )
     SELECT s.id AS "scoreId", j.jury, j.final_jury AS "finalJury", d.rel_leistung AS detail,
            COALESCE(e.jury_events, 0) AS "juryEvents", COALESCE(e.value_events, 0) AS "valueEvents", e.value_event_score AS "valueEventScore"
       FROM unnest($1::int[]) AS s(id)
       LEFT JOIN jury j ON j.score_id = s.id
       LEFT JOIN events e ON e.score_id = s.id
       LEFT JOIN ${t.wertungen_details} d ON d.int_wertungenid = s.id AND d.int_disziplinenid = $4
      ORDER BY s.id`,
    [scoreIds, targets.discipline.fields.A, targets.discipline.fields.final, targets.discipline.id],
  );
  return rows;
}

/** Every way the database breaks what the saves' answers promised; empty when it keeps all of it. */
export async function saveViolations(pool: Pool, targets: PortalTargets, outcomes: readonly SaveOutcome[]): Promise<string[]> {
  const sent = new Map<string, SaveOutcome>();
  for (const outcome of outcomes) sent.set(`${outcome.kind}:${outcome.scoreId}`, outcome);
  const violations: string[] = [];
  for (const stored of await storedScores(pool, targets)) {
    const { scoreId } = stored;
    const commands: Array<{ kind: SaveKind; written: boolean; complete: boolean; value: boolean }> = [
      {
        kind: 'jury',
        written: stored.jury !== null || stored.juryEvents > 0,
        complete: stored.jury !== null && stored.juryEvents === 1,
        value: stored.jury === juryValueOf(scoreId),
      },
      {
        kind: 'value',
        written: stored.detail !== null || stored.finalJury !== null || stored.valueEvents > 0,
        complete: stored.detail !== null && stored.finalJury !== null && stored.valueEvents === 1,
        value:
          stored.detail === finalValueOf(scoreId) &&
          stored.finalJury === finalValueOf(scoreId) &&
          stored.valueEventScore === finalValueOf(scoreId),
      },
    ];
    for (const { kind, written, complete, value } of commands) {
      const outcome = sent.get(`${kind}:${scoreId}`);
      const state = JSON.stringify(stored);
      if (written && !complete) violations.push(`${kind} save of score ${scoreId} is half-written: ${state}`);
      else if (complete && !value) violations.push(`${kind} save of score ${scoreId} stored other values than sent: ${state}`);
      if (!outcome) {
        if (written) violations.push(`${kind} save of score ${scoreId} was never sent but is stored: ${state}`);
      } else if (outcome.status !== null && outcome.status < 300) {
        if (!complete)
          violations.push(`${kind} save of score ${scoreId} was answered ${outcome.status} but is not stored completely: ${state}`);
      } else if (outcome.status !== null && outcome.status !== 503 && written) {
        violations.push(`${kind} save of score ${scoreId} failed with ${outcome.status} but changed the database: ${state}`);
      }
    }
  }
  return violations;
}

/** Contract section 3: `{statusCode, error, code, message}` and nothing else. */
export function isContractErrorBody(body: unknown, statusCode: number, code: string): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const fields = body as Record<string, unknown>;
  return (
    Object.keys(fields).sort().join() === 'code,error,message,statusCode' &&
    fields.statusCode === statusCode &&
    fields.code === code &&
    typeof fields.error === 'string' &&
    typeof fields.message === 'string'
  );
}
