import type { BuildInfo } from '../../src/system/build-info.js';
import { h } from './dom.js';
import { t } from './i18n.js';

/** The frontend's own build info, put into the bundle by Vite `define` (web/vite.config.ts). */
export const FRONTEND_BUILD: BuildInfo = __BUILD_INFO__;

export function describeBuild(label: string, build: BuildInfo): string {
  return t('build.details', { label, hash: build.gitHash, branch: build.gitBranch, date: build.buildDate });
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
    { class: 'badge', 'data-badge': 'backend', 'data-state': 'loading', title: t('build.asking') },
    'Backend …',
  );
  loadBackend().then(
    (version) => fillBadge(backendBadge, 'Backend', version.build),
    (error: unknown) => {
      backendBadge.textContent = t('build.unavailable');
      backendBadge.title = t('build.failed', { error: (error as Error).message });
      backendBadge.dataset.state = 'error';
    },
  );
  return h('div', { class: 'badges', 'aria-label': t('build.versions') }, frontendBadge, backendBadge);
}
