/**
 * Dependencies point one way: routes → commands / queries / projections → outbox append, model,
 * domain, db. The rules are `FORBIDDEN` in `test/support/import-graph.ts` (the layers, and the
 * handler layers among themselves); type-only imports count, since a cycle of types still ties
 * the modules together.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, readImportGraph, upwardImports } from '../support/import-graph.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the import graph of the source folders', () => {
  const graph = readImportGraph(projectRoot);

  it('reads every source folder', () => {
    for (const file of [
      'src/server.ts',
      'commands/run-command.ts',
      'queries/list-scores.ts',
      'projections/live-results.ts',
      'outbox/relay.ts',
      'web/shared/api.ts',
    ]) {
      expect(graph.has(file), file).toBe(true);
    }
    expect(graph.get('src/server.ts')).toContain('src/app.ts');
  });

  it('has no upward import', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(importCycles(graph)).toEqual([]);
  });
});

describe('the check itself', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };

  it('finds a cycle of type-only imports, an upward import and an import of the app outside the composition root', () => {
    write('web/office/main.ts', "import type { View } from './view.js';\nexport interface Shell { view: View }\n");
    write('web/office/view.ts', "import type { Shell } from './main.js';\nexport interface View { shell: Shell }\n");
    write('commands/save.ts', "import { notFound } from '../src/http/errors.js';\nexport const save = notFound;\n");
    write('src/http/errors.ts', 'export const notFound = 1;\n');
    write('src/http/routes/scores.ts', "import type { TypedApp } from '../../app.js';\nexport type T = TypedApp;\n");
    write('src/app.ts', 'export type TypedApp = object;\n');
    write('queries/read.ts', "export { save } from '../commands/save.js';\n");
    const graph = readImportGraph(root);
    expect(importCycles(graph)).toEqual([['web/office/main.ts', 'web/office/view.ts']]);
    expect(upwardImports(graph)).toEqual([
      'commands/save.ts -> src/http/errors.ts',
      'queries/read.ts -> commands/save.ts',
      'src/http/routes/scores.ts -> src/app.ts',
    ]);
  });
});
