import type { BuildInfo } from '../../src/system/build-info.js';
import { h } from './dom.js';

/** The frontend's own build info, put into the bundle by Vite `define` (web/vite.config.ts). */
export const FRONTEND_BUILD: BuildInfo = __BUILD_INFO__;

export function describeBuild(label: string, build: BuildInfo): string {
  return `${label} build\nHash: ${build.gitHash}\nBranch: ${build.gitBranch}\nBuilt: ${build.buildDate}`;
}

function fillBadge(badge: HTMLElement, label: string, build: BuildInfo): void {
  badge.textContent = `${label} ${build.gitHash}`;
  badge.title = describeBuild(label, build);
  badge.dataset.state = 'ready';
  badge.dataset.hash = build.gitHash;
}

/**
 * Header badges of spec "Versioning" 2: the frontend hash from the bundle, the backend hash from
 * GET /api/system/version, with a placeholder while it loads and an error text when it fails.
 * Shared by every page of the client (jury portal, scoreboard, office).
 */
export function buildBadges(loadBackend: () => Promise<{ build: BuildInfo }>, frontend: BuildInfo = FRONTEND_BUILD): HTMLElement {
  const frontendBadge = h('span', { class: 'badge', 'data-badge': 'frontend' });
  fillBadge(frontendBadge, 'Frontend', frontend);
  const backendBadge = h(
    'span',
    { class: 'badge', 'data-badge': 'backend', 'data-state': 'loading', title: 'Asking the backend for its version…' },
    'Backend …',
  );
  loadBackend().then(
    (version) => fillBadge(backendBadge, 'Backend', version.build),
    (error: unknown) => {
      backendBadge.textContent = 'Backend version unavailable';
      backendBadge.title = `GET /api/system/version failed: ${(error as Error).message}`;
      backendBadge.dataset.state = 'error';
    },
  );
  return h('div', { class: 'badges', 'aria-label': 'Build versions' }, frontendBadge, backendBadge);
}
