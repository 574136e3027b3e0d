/**
 * An E-panel discipline for the issue 21 tests: D (sort 1), judges E1…En (sorts 2…n+1), the
 * aggregate field E (n+2) and the final (n+3), with the formula `A + B` (D + E once the judges'
 * fields are left out of the letters).
 */
import type { Queryable } from '../../src/db/pool.js';
import { insertRow } from './fixtures.js';

export interface PanelDiscipline {
  id: number;
  difficulty: number;
  judges: number[];
  aggregate: number;
  final: number;
}

export async function insertPanelDiscipline(
  pool: Queryable,
  options: { name?: string; judges?: number; inputMask?: string | null; decimals?: number | null; formula?: string } = {},
): Promise<PanelDiscipline> {
  const id = await insertRow(pool, 'disziplinen', 'int_disziplinenid', {
    var_name: options.name ?? 'Sprung',
    var_formel: options.formula ?? 'A + B',
    var_eingabemaske: options.inputMask === undefined ? '00.000' : options.inputMask,
    int_berechnung: options.decimals === undefined ? 3 : options.decimals,
  });
  const field = (name: string, sort: number, extra: Record<string, unknown> = {}) =>
    insertRow(pool, 'disziplinen_felder', 'int_disziplinen_felderid', {
      int_disziplinenid: id,
      var_name: name,
      var_kurzname: name.slice(0, 10),
      int_sortierung: sort,
      ...extra,
    });
  const count = options.judges ?? 5;
  const difficulty = await field('D-Note', 1, { bol_ausgangswert: true });
  const judges: number[] = [];
  for (let index = 1; index <= count; index += 1) judges.push(await field(`E${index}`, 1 + index));
  const aggregate = await field('E-Note', count + 2);
  const final = await field('Endwert', count + 3, { bol_endwert: true });
  return { id, difficulty, judges, aggregate, final };
}

export async function sendJson(
  method: 'PUT' | 'DELETE' | 'POST' | 'GET',
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}
