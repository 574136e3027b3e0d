/**
 * Read-only lists for the web client's pickers: events and disciplines (devices), each a bare
 * array like GET /api/discipline-fields. Not in the spec; documented in docs/api-changelog.md.
 */
import { Type } from '@sinclair/typebox';
import type { AppDeps, TypedApp } from '../app-types.js';
import { selectDisciplines, selectEvents } from '../../../queries/list-catalog.js';
import { withErrors } from '../schemas/common.js';
import { NullablePanelSettings } from '../schemas/panel.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

const EventsReply = Type.Array(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    dateFrom: Type.Union([Type.String({ description: 'YYYY-MM-DD' }), Type.Null()]),
    dateTo: Type.Union([Type.String({ description: 'YYYY-MM-DD' }), Type.Null()]),
  }),
);

const DisciplinesReply = Type.Array(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    displayName: NullableString,
    shortName: NullableString,
    inputMask: Type.Union([Type.String(), Type.Null()], {
      description: 'Input mask for score entry (var_eingabemaske), e.g. 00.00, 0,00 or 0:00.00',
    }),
    decimals: Type.Union([Type.Integer(), Type.Null()], { description: 'Decimal places for individual score entry (int_berechnung)' }),
    formula: Type.Union([Type.String(), Type.Null()], {
      description: 'Formula after calculation rule 1; null when none is stored or it does not parse',
    }),
    startValue: Type.Number(),
    enabledFieldCount: Type.Integer(),
    panel: NullablePanelSettings,
  }),
);

export async function catalogRoutes(app: TypedApp, deps: AppDeps): Promise<void> {
  app.get(
    '/api/events',
    {
      config: { publicRead: true },
      schema: { tags: ['catalog'], summary: 'All events (Veranstaltungen), latest first', response: withErrors({ 200: EventsReply }, 503) },
    },
    async () => selectEvents(deps.pool),
  );

  app.get(
    '/api/disciplines',
    {
      config: { publicRead: true },
      schema: {
        tags: ['catalog'],
        summary: 'All disciplines (devices) with input mask, decimals and resolved formula',
        response: withErrors({ 200: DisciplinesReply }, 503),
      },
    },
    async () => selectDisciplines(deps.pool),
  );
}
