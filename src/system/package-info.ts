import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  name: string;
  version: string;
  description: string;
}

const PACKAGE_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');

export function readPackageInfo(): PackageInfo {
  const pkg = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as Partial<PackageInfo>;
  return { name: pkg.name ?? 'unknown', version: pkg.version ?? '0.0.0', description: pkg.description ?? '' };
}
