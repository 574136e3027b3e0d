/**
 * PUT /api/events/:eventId/competitions/:competitionId/tie-break (admin): stores a competition's
 * tie-break rule and rank notation in the app setting `results` under `competitions`, beside the
 * competition's own age classes (which stay as they are). The route checks the input first
 * (`checkTieBreakInput`, queries/tie-break-setting.ts), which also makes sure the setting's row exists.
 */
import type { TxClient } from '../src/db/pool.js';
import type { RankNotation, TieBreakRule } from '../src/domain/all-around.js';

export async function setTieBreakSetting(
  tx: TxClient,
  competitionId: number,
  input: {
    tieBreak: TieBreakRule;
    rankNotation?: RankNotation | undefined;
    maxDrops?: number | undefined;
    apparatusOrder?: number[] | undefined;
  },
): Promise<void> {
  const order = input.apparatusOrder ?? [];
  const own = {
    tieBreak: input.tieBreak,
    ...(input.rankNotation === undefined ? {} : { rankNotation: input.rankNotation }),
    ...(input.maxDrops === undefined ? {} : { maxDrops: input.maxDrops }),
    ...(order.length === 0 ? {} : { apparatusOrder: order }),
  };
  await tx.query(
    `UPDATE ${tx.tables.svc_settings}
        SET value = jsonb_set(value, '{competitions}', COALESCE(value->'competitions', '{}'::jsonb) || jsonb_build_object($1::text,
              (COALESCE(value->'competitions'->$1::text, '{}'::jsonb) - 'tieBreak' - 'rankNotation' - 'maxDrops' - 'apparatusOrder') || $2::jsonb)),
            updated_at = now()
      WHERE key = 'results'`,
    [String(competitionId), JSON.stringify(own)],
  );
}
