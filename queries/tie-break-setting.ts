/**
 * A competition's tie-break rule and rank notation (`GET` and the checks of `PUT
 * /api/events/:eventId/competitions/:competitionId/tie-break`), kept in the app setting `results`
 * under `competitions`; `commands/tie-break-setting.ts` writes it.
 */
import type { Queryable } from '../src/db/pool.js';
import { notFound, validationFailed } from '../src/domain/errors.js';
import type { RankNotation, TieBreakRule } from '../src/domain/all-around.js';
import type { ApparatusTieBreak } from '../src/domain/apparatus-ranking.js';
import { competitionRanking, readAppSetting, type CompetitionRanking } from './app-settings.js';
import { selectCompetitionDisciplines, selectResultsScope } from './results.js';

export interface TieBreakSettingInput {
  tieBreak: TieBreakRule;
  apparatusTieBreak?: ApparatusTieBreak | undefined;
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

/**
 * Refuses a rule for an unknown competition (404) or an apparatus order naming a discipline the
 * competition has no scores on (400); reading the setting stores its defaults when it is not there yet.
 */
export async function checkTieBreakInput(
  db: Queryable,
  eventId: number,
  competitionId: number,
  input: TieBreakSettingInput,
): Promise<void> {
  await checkedScope(db, eventId, competitionId);
  const order = input.apparatusOrder ?? [];
  if (input.tieBreak === 'apparatus-order') {
    if (order.length === 0) throw validationFailed('apparatus-order needs apparatusOrder: the discipline ids to compare, in order');
    const [individual, team] = await Promise.all([
      selectCompetitionDisciplines(db, competitionId, 'individual'),
      selectCompetitionDisciplines(db, competitionId, 'team'),
    ]);
    const known = new Set([...individual, ...team].map((discipline) => discipline.disciplineId));
    const unknown = order.filter((disciplineId) => !known.has(disciplineId));
    if (unknown.length > 0) throw validationFailed(`apparatus ${unknown.join(', ')} not in competition ${competitionId}`);
  }
  await readAppSetting(db, 'results');
}
