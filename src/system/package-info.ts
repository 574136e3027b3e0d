import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './project-root.js';

export interface PackageInfo {
  name: string;
  version: string;
  description: string;
}

const PACKAGE_JSON = path.join(PROJECT_ROOT, 'package.json');

export function readPackageInfo(): PackageInfo {
  const pkg = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as Partial<PackageInfo>;
  return { name: pkg.name ?? 'unknown', version: pkg.version ?? '0.0.0', description: pkg.description ?? '' };
}
