import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './project-root.js';

export interface BuildInfo {
  gitHash: string;
  gitBranch: string;
  gitCommitDate: string;
  buildTimestamp: string;
  buildDate: string;
}

export const GIT_UNAVAILABLE = 'unknown (git unavailable)';
export const BUILD_INFO_FILE = path.join(PROJECT_ROOT, 'src/system/build-info.generated.json');

function git(args: string[], cwd: string): string | null {
  try {
    const out = execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 })
      .toString()
      .trim();
    return out || null;
  } catch {
    return null;
  }
}

export function collectBuildInfo(cwd: string, now: Date = new Date()): BuildInfo {
  return {
    gitHash: git(['rev-parse', '--short', 'HEAD'], cwd) ?? GIT_UNAVAILABLE,
    gitBranch: git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd) ?? GIT_UNAVAILABLE,
    gitCommitDate: git(['log', '-1', '--format=%cI'], cwd) ?? GIT_UNAVAILABLE,
    buildTimestamp: now.toISOString(),
    buildDate: now.toLocaleString('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' }),
  };
}

export function writeBuildInfo(cwd: string, file: string = BUILD_INFO_FILE): BuildInfo {
  const info = collectBuildInfo(cwd);
  writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/** The file written before start/build; computed on the spot when someone skipped that step. */
export function readBuildInfo(cwd: string, file: string = BUILD_INFO_FILE): BuildInfo {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as BuildInfo;
  return collectBuildInfo(cwd);
}
