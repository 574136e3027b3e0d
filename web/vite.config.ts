/**
 * Vite settings of the web client. The pages live in web/<page>/ and each builds into
 * web/dist/<page>/ with relative asset paths, so the backend can serve a page under /<page>/ and a
 * stand-alone server (port 5174, `npm run serve:web`) can serve the same files unchanged.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig } from 'vite';
import { readBuildInfo } from '../src/system/build-info.js';

export const WEB_ROOT = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(WEB_ROOT, '..');
export const DIST_DIR = path.join(WEB_ROOT, 'dist');
/** Every page of the client; the backend serves each under /<page>/ (src/http/routes/web.ts). */
export const PAGES = ['jury', 'board', 'office', 'live'] as const;

/**
 * Spec "Versioning" 2-3: the bundle carries the build info from the same collector as the
 * backend, read from the generated file when `npm run build-info` wrote one just before, so a
 * combined build shows equal hashes.
 */
function sharedConfig(): InlineConfig {
  return {
    configFile: false,
    define: { __BUILD_INFO__: JSON.stringify(readBuildInfo(REPO_ROOT)) },
    logLevel: 'warn',
    clearScreen: false,
  };
}

export function pageBuildConfig(page: (typeof PAGES)[number]): InlineConfig {
  return {
    ...sharedConfig(),
    root: path.join(WEB_ROOT, page),
    base: './',
    // Shared static files (favicon, the offline service worker) copied into every page's folder.
    publicDir: path.join(WEB_ROOT, 'public'),
    build: {
      outDir: path.join(DIST_DIR, page),
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
    },
  };
}

/** Stand-alone server for installations that run the portal on its own port; proxies the backend. */
export function standaloneConfig(options: { port: number; backendUrl: string }): InlineConfig {
  const proxy = {
    '/api': { target: options.backendUrl, changeOrigin: true },
    '/socket.io': { target: options.backendUrl, changeOrigin: true, ws: true },
  };
  const server = { port: options.port, strictPort: true, host: true, proxy };
  return {
    ...sharedConfig(),
    // The dev server transforms the sources under the root; preview serves build.outDir.
    root: WEB_ROOT,
    server: { ...server, fs: { allow: [REPO_ROOT] } },
    preview: server,
    build: { outDir: DIST_DIR },
  };
}
