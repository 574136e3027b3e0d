/**
 * POST and DELETE /api/events/:eventId/judge-credentials (issue 45): a credential binds a judge to
 * one apparatus of an event (and optionally one E-judge field) until the end of a competition day.
 * The signed token is made by the HTTP layer from what is stored here; the row decides whether the
 * token still counts (revoked, expired).
 */
import type { TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import { judgeCredentialJson, type JudgeCredential } from '../src/model/judge-credential.js';
import { selectRotationScope } from '../src/model/rotation-scope.js';

export interface IssueJudgeCredentialInput {
  eventId: number;
  disciplineId: number;
  fieldId?: number | undefined;
  competitionId?: number | undefined;
  judgeName?: string | undefined;
  /** YYYY-MM-DD; absent: today, or the event's first day when it lies ahead. */
  day?: string | undefined;
}

interface CheckRow {
  field_discipline: number | null;
  field_name: string | null;
  before_today: boolean;
}

export async function issueJudgeCredential(tx: TxClient, input: IssueJudgeCredentialInput, actor: string): Promise<JudgeCredential> {
  const scope = await selectRotationScope(tx, input.eventId);
  if (!scope.eventFound) throw notFound(`No event ${input.eventId}`);
  const discipline = scope.disciplines.find((candidate) => candidate.id === input.disciplineId);
  if (discipline === undefined)
    throw validationFailed(`body.disciplineId: apparatus ${input.disciplineId} is not one of event ${input.eventId}`);
  if (input.competitionId !== undefined && !scope.competitionIds.includes(input.competitionId))
    throw validationFailed(`body.competitionId: competition ${input.competitionId} is not one of event ${input.eventId}`);
  const {
    rows: [check],
  } = await tx.query<CheckRow>(
    `SELECT (SELECT int_disziplinenid FROM ${tx.tables.disziplinen_felder} WHERE int_disziplinen_felderid = $1) AS field_discipline,
            (SELECT COALESCE(var_kurzname, var_name) FROM ${tx.tables.disziplinen_felder} WHERE int_disziplinen_felderid = $1) AS field_name,
            COALESCE($2::date < current_date, false) AS before_today`,
    [input.fieldId ?? null, input.day ?? null],
  );
  if (input.fieldId !== undefined && check!.field_discipline !== input.disciplineId)
    throw validationFailed(`body.fieldId: field ${input.fieldId} is not a field of apparatus ${input.disciplineId}`);
  if (check!.before_today) throw validationFailed(`body.day: ${input.day} has passed; a credential expires at the end of its day`);
  const judgeName = input.judgeName ?? [discipline.name, check!.field_name].filter((part) => part !== null).join(' ');
  // The day ends at midnight in the database's time zone, the hall's clock.
  const { rows } = await tx.query<{ credential: JudgeCredential }>(
    `WITH issued AS (
       INSERT INTO ${tx.tables.svc_judge_credentials} (event_id, competition_id, discipline_id, field_id, judge_name, issued_by, expires_at)
       SELECT $1, COALESCE($2, ($8::int[])[1]), $3, $4, $5, $6,
              (COALESCE($7::date, GREATEST(current_date, $9::date)) + 1)::timestamptz
       RETURNING *
     )
     SELECT ${judgeCredentialJson(tx.tables, 'issued')} AS credential FROM issued`,
    [
      input.eventId,
      input.competitionId ?? null,
      input.disciplineId,
      input.fieldId ?? null,
      judgeName,
      actor,
      input.day ?? null,
      scope.competitionIds,
      scope.startDate,
    ],
  );
  return rows[0]!.credential;
}

/** Revoking a revoked credential keeps its first revocation. */
export async function revokeJudgeCredential(tx: TxClient, eventId: number, id: number, actor: string): Promise<JudgeCredential> {
  const { rows } = await tx.query<{ credential: JudgeCredential }>(
    `WITH revoked AS (
       UPDATE ${tx.tables.svc_judge_credentials}
          SET revoked_at = COALESCE(revoked_at, now()), revoked_by = COALESCE(revoked_by, $3)
        WHERE id = $2 AND event_id = $1
       RETURNING *
     )
     SELECT ${judgeCredentialJson(tx.tables, 'revoked')} AS credential FROM revoked`,
    [eventId, id, actor],
  );
  if (rows.length === 0) throw notFound(`No judge credential ${id} in event ${eventId}`);
  return rows[0]!.credential;
}
