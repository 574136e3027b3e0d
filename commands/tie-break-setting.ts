/**
 * PUT /api/events/:eventId/competitions/:competitionId/tie-break (admin): stores a competition's
 * tie-break rule and rank notation in the app setting `results` under `competitions`, beside the
 * competition's own age classes (which stay as they are), and appends `tie-break-changed`. The route checks the input first
 * (`checkTieBreakInput`, queries/tie-break-setting.ts), which also makes sure the setting's row exists.
 */
import type { TxClient } from '../src/db/pool.js';
import type { RankNotation, TieBreakRule } from '../src/domain/all-around.js';
import type { ApparatusTieBreak } from '../src/domain/apparatus-ranking.js';
import { appendOutboxEvent } from '../outbox/append.js';
import { tieBreakChanged } from '../outbox/events.js';

export async function setTieBreakSetting(
  tx: TxClient,
  scope: { eventId: number; competitionId: number; by: string },
  input: {
    tieBreak: TieBreakRule;
    apparatusTieBreak?: ApparatusTieBreak | undefined;
    rankNotation?: RankNotation | undefined;
    maxDrops?: number | undefined;
    apparatusOrder?: number[] | undefined;
  },
): Promise<void> {
  const order = input.apparatusOrder ?? [];
  const own = {
    tieBreak: input.tieBreak,
    ...(input.apparatusTieBreak === undefined ? {} : { apparatusTieBreak: input.apparatusTieBreak }),
    ...(input.rankNotation === undefined ? {} : { rankNotation: input.rankNotation }),
    ...(input.maxDrops === undefined ? {} : { maxDrops: input.maxDrops }),
    ...(order.length === 0 ? {} : { apparatusOrder: order }),
  };
  await tx.query(
    `UPDATE ${tx.tables.svc_settings}
        SET value = jsonb_set(value, '{competitions}', COALESCE(value->'competitions', '{}'::jsonb) || jsonb_build_object($1::text,
              (COALESCE(value->'competitions'->$1::text, '{}'::jsonb) - 'tieBreak' - 'apparatusTieBreak' - 'rankNotation' - 'maxDrops' - 'apparatusOrder') || $2::jsonb)),
            updated_at = now()
      WHERE key = 'results'`,
    [String(scope.competitionId), JSON.stringify(own)],
  );
  // Boards rank on their own between reloads: the event makes them take the new rule.
  await appendOutboxEvent(tx, tieBreakChanged({ eventId: scope.eventId, competitionId: scope.competitionId, by: scope.by }));
}
