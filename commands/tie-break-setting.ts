/**
 * PUT /api/events/:eventId/competitions/:competitionId/tie-break (admin): a competition's
 * tie-break rule and rank notation, kept in the app setting `results` under `competitions`
 * beside the competition's own age classes (which stay as they are).
 */
import type { Queryable, TxClient } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import type { RankNotation, TieBreakRule } from '../src/domain/all-around.js';
import { competitionRanking, readAppSetting, type CompetitionRanking } from '../queries/app-settings.js';
import { selectCompetitionDisciplines, selectResultsScope } from '../queries/results.js';

export interface TieBreakSettingInput {
  tieBreak: TieBreakRule;
  rankNotation?: RankNotation | undefined;
  maxDrops?: number | undefined;
  apparatusOrder?: number[] | undefined;
}

export type TieBreakSetting = Omit<CompetitionRanking, 'ageClassRanges'> & { competitionId: number };

async function checkedScope(db: Queryable, eventId: number, competitionId: number): Promise<void> {
  const scope = await selectResultsScope(db, eventId, competitionId);
  if (!scope) throw notFound(`No event ${eventId}`);
  if (!scope.competition_found) throw notFound(`No competition ${competitionId} in event ${eventId}`);
}

/** GET: the rule in force for the competition (its own, else the general one). */
export async function readTieBreakSetting(db: Queryable, eventId: number, competitionId: number): Promise<TieBreakSetting> {
  await checkedScope(db, eventId, competitionId);
  const { ageClassRanges: _ranges, ...ranking } = competitionRanking(await readAppSetting(db, 'results'), competitionId);
  return { competitionId, ...ranking };
}

export async function setTieBreakSetting(
  tx: TxClient,
  eventId: number,
  competitionId: number,
  input: TieBreakSettingInput,
): Promise<TieBreakSetting> {
  await checkedScope(tx, eventId, competitionId);
  const order = input.apparatusOrder ?? [];
  if (input.tieBreak === 'apparatus-order') {
    if (order.length === 0) throw validationFailed('apparatus-order needs apparatusOrder: the discipline ids to compare, in order');
    const [individual, team] = await Promise.all([
      selectCompetitionDisciplines(tx, competitionId, 'individual'),
      selectCompetitionDisciplines(tx, competitionId, 'team'),
    ]);
    const known = new Set([...individual, ...team].map((discipline) => discipline.disciplineId));
    const unknown = order.filter((disciplineId) => !known.has(disciplineId));
    if (unknown.length > 0) throw validationFailed(`apparatus ${unknown.join(', ')} not in competition ${competitionId}`);
  }
  const own = {
    tieBreak: input.tieBreak,
    ...(input.rankNotation === undefined ? {} : { rankNotation: input.rankNotation }),
    ...(input.maxDrops === undefined ? {} : { maxDrops: input.maxDrops }),
    ...(order.length === 0 ? {} : { apparatusOrder: order }),
  };
  await readAppSetting(tx, 'results'); // stores the defaults when the setting is not there yet
  await tx.query(
    `UPDATE ${tx.tables.svc_settings}
        SET value = jsonb_set(value, '{competitions}', COALESCE(value->'competitions', '{}'::jsonb) || jsonb_build_object($1::text,
              (COALESCE(value->'competitions'->$1::text, '{}'::jsonb) - 'tieBreak' - 'rankNotation' - 'maxDrops' - 'apparatusOrder') || $2::jsonb)),
            updated_at = now()
      WHERE key = 'results'`,
    [String(competitionId), JSON.stringify(own)],
  );
  return readTieBreakSetting(tx, eventId, competitionId);
}
