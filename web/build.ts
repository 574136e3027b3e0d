/**
 * Builds every page of the web client into web/dist/<page>/.
 *   tsx web/build.ts             always build
 *   tsx web/build.ts --if-stale  build only when a source is newer than the last build (prestart/pretest)
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as Vite from 'vite';
import { DIST_DIR, PAGES, REPO_ROOT, WEB_ROOT, pageBuildConfig } from './vite.config.js';

const STAMP = path.join(DIST_DIR, '.build-stamp');
// Sources of the bundle outside web/: the shared domain modules and the dependency versions.
const EXTRA_SOURCES = [path.join(REPO_ROOT, 'src/domain'), path.join(REPO_ROOT, 'package-lock.json')];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry)) {
    if (name === 'dist' || name === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

function isStale(): boolean {
  if (!existsSync(STAMP)) return true;
  if (PAGES.some((page) => !existsSync(path.join(DIST_DIR, page, 'index.html')))) return true;
  const built = statSync(STAMP).mtimeMs;
  return [WEB_ROOT, ...EXTRA_SOURCES].some((source) => newestMtime(source) > built);
}

async function main(): Promise<void> {
  if (process.argv.includes('--if-stale') && !isStale()) {
    console.log('web client: up to date (web/dist)');
    return;
  }
  let vite: typeof Vite;
  try {
    vite = await import('vite');
  } catch {
    // Production installs without dev dependencies still start; the pages then answer 503 saying why.
    console.warn(
      `web client: not built, vite is not installed (npm ci installs it); ${PAGES.map((page) => `/${page}/`).join(', ')} will answer 503`,
    );
    return;
  }
  const started = Date.now();
  for (const page of PAGES) await vite.build(pageBuildConfig(page));
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  console.log(`web client: built ${PAGES.join(', ')} into web/dist in ${Date.now() - started} ms`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
