/** An event whose head judge console has open panel deviations in two competitions. */
import { expect } from 'vitest';
import { createCompetition, insertPanelDiscipline, insertRow, type Competition, type PanelDiscipline } from './fixtures.js';
import { postJson, sendJson } from './http.js';
import type { TestServer } from './server.js';
import { adminToken, bearer } from './tokens.js';

export interface TwoCompetitionsWithPanel {
  cup: Competition;
  league: Competition;
  /** Judged by three E-judges, their median the E score, tolerance 0.5. */
  vault: PanelDiscipline;
}

/** One event with two competitions ("Gaupokal", "Kreisliga") and a vault with a three-judge median panel. */
export async function seedTwoCompetitionsWithPanel(server: TestServer): Promise<TwoCompetitionsWithPanel> {
  const cup = await createCompetition(server.pool, 'Gaupokal');
  const league = {
    ...cup,
    competitionId: await insertRow(server.pool, 'wettkaempfe', 'int_wettkaempfeid', {
      int_veranstaltungenid: cup.eventId,
      var_name: 'Kreisliga',
    }),
  };
  const vault = await insertPanelDiscipline(server.pool, { name: 'Sprung', judges: 3 });
  const settings = await sendJson(
    'PUT',
    `${server.url}/api/disciplines/${vault.id}/panel`,
    { judgeFieldIds: vault.judges, aggregation: 'median', aggregateFieldId: vault.aggregate, tolerance: 0.5 },
    bearer(adminToken),
  );
  expect(settings.status).toBe(200);
  return { cup, league, vault };
}

/** Three E-judges two points apart: the panel's spread is over its tolerance, a deviation opens. */
export async function openDeviation(server: TestServer, vault: PanelDiscipline, scoreId: number): Promise<void> {
  for (const [judge, value] of [8, 8, 6].entries()) {
    const saved = await postJson(`${server.url}/api/jury-results`, {
      participantId: scoreId,
      disciplineFieldId: vault.judges[judge],
      performance: value,
      attempt: 1,
    });
    expect(saved.status).toBe(200);
  }
}
