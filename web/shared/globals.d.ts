import type { BuildInfo } from '../../src/system/build-info.js';

declare global {
  /** Replaced at build time by Vite `define` (web/vite.config.ts) with the collected build info. */
  const __BUILD_INFO__: BuildInfo;
}
