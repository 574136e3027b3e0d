/**
 * The import graph of the source folders, for the test that keeps dependencies pointing one way
 * (`test/unit/import-graph.test.ts`): relative `import`/`export … from` specifiers, type-only
 * ones included, resolved to `.ts` files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const SOURCE_FOLDERS = ['src', 'commands', 'queries', 'projections', 'outbox', 'web'] as const;

/** File (relative, `/`-separated) → the files it imports. */
export type ImportGraph = Map<string, Set<string>>;

const SPECIFIER = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.[^'"]+)['"]/gs;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  const base = path.normalize(path.join(path.dirname(from), specifier));
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

export function readImportGraph(root: string, folders: readonly string[] = SOURCE_FOLDERS): ImportGraph {
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const graph: ImportGraph = new Map();
  for (const file of folders.flatMap((folder) => sourceFiles(path.join(root, folder)))) {
    const targets = new Set<string>();
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolve(file, specifier!);
      if (target) targets.add(relative(target));
    }
    graph.set(relative(file), targets);
  }
  return graph;
}

/** The layer of a file: a top-level folder, or `src/<folder>`, or the file itself at the top of `src/`. */
export function layerOf(file: string): string {
  const [top, second, third] = file.split('/');
  return top === 'src' && third !== undefined ? `${top}/${second}` : top === 'src' ? file : top!;
}

const COMPOSITION_ROOT = ['src/app.ts', 'src/server.ts', 'src/main.ts'];
const HANDLERS = ['commands', 'queries', 'projections'];

/**
 * What each layer must not import. Routes (`src/http`) sit on top and may use everything below
 * them; handlers use the model, domain, db and (commands) the outbox append; nothing below the
 * HTTP layer reaches up into it or into the composition root, and only `src/server.ts` builds the
 * app (`src/app.ts`).
 */
export const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  commands: ['src/http', ...COMPOSITION_ROOT, 'queries', 'projections'],
  queries: ['src/http', ...COMPOSITION_ROOT, 'commands', 'projections', 'outbox'],
  projections: ['src/http', ...COMPOSITION_ROOT, 'commands', 'queries'],
  outbox: ['src/http', ...COMPOSITION_ROOT, ...HANDLERS],
  'src/model': ['src/http', ...COMPOSITION_ROOT, ...HANDLERS, 'outbox'],
  'src/db': ['src/http', ...COMPOSITION_ROOT, ...HANDLERS, 'outbox', 'src/model'],
  'src/domain': ['src/http', ...COMPOSITION_ROOT, ...HANDLERS, 'outbox', 'src/model', 'src/db'],
  web: ['src/http', ...COMPOSITION_ROOT],
};

/** `from -> to` for every import that breaks `FORBIDDEN` or builds the app outside the composition root. */
export function upwardImports(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const forbidden = FORBIDDEN[layerOf(file)] ?? [];
    for (const target of targets) {
      const targetLayer = layerOf(target);
      const breaks = forbidden.includes(targetLayer) || (target === 'src/app.ts' && file !== 'src/server.ts');
      if (breaks && layerOf(file) !== targetLayer) found.push(`${file} -> ${target}`);
    }
  }
  return found.sort();
}

/** Strongly connected components with more than one file (Tarjan), each sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
