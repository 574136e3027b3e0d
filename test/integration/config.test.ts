import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { readOnlyDirectory } from '../support/filesystems.js';
import { runScript } from '../support/process.js';

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-config-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const VALID_SECRET = 'a-secret-of-sufficient-length';

function loadError(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ JWT_SECRET: VALID_SECRET, ...env }, tempDir());
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('uses the contract defaults when nothing is set', () => {
    const dir = tempDir();
    const config = loadConfig({ JWT_SECRET: VALID_SECRET }, dir);
    expect(config).toMatchObject({
      databaseUrl: null,
      port: 3001,
      host: '0.0.0.0',
      tablePrefix: 'app_',
      logLevel: 'info',
      authMode: 'lan',
      outboxRetentionHours: 48,
      dataDir: path.join(dir, '.data'),
    });
  });

  it.each([
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://user:pw@localhost:3306/gym'],
    ['DATABASE_URL', 'http://localhost:5432/gym'],
    ['PORT', '0'],
    ['PORT', '70000'],
    ['PORT', 'abc'],
    ['PORT', '80.5'],
    ['TABLE_PREFIX', 'my-prefix_'],
    ['TABLE_PREFIX', 'App_'],
    ['TABLE_PREFIX', 'x;drop'],
    ['TABLE_PREFIX', '1abc_'],
    ['LOG_LEVEL', 'verbose'],
    ['AUTH_MODE', 'open'],
    ['OUTBOX_RETENTION_HOURS', '-1'],
    ['OUTBOX_RETENTION_HOURS', 'two days'],
    ['JWT_SECRET', 'short'],
    ['SERVICE_MODE', 'readonly'],
    ['PUBLISH_RESULTS', 'yes'],
  ])('refuses %s=%j with a one-line message naming the variable', (variable, value) => {
    const error = loadError({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
    expect(error.message).not.toContain('\n');
  });

  it('refuses a slot size PostgreSQL would not take, naming PUBLISH_MAX_SLOT_WAL', () => {
    for (const size of ['4 GB', '0GB', '4GB; wal_level=minimal', '1KB']) {
      const error = loadError({ PUBLISH_RESULTS: '1', PUBLISH_MAX_SLOT_WAL: size });
      expect(error.variable).toBe('PUBLISH_MAX_SLOT_WAL');
    }
  });

  it('runs as the hall without publishing by default; PUBLISH_RESULTS=1 keeps at most 4GB of WAL for the public side', () => {
    expect(loadConfig({ JWT_SECRET: VALID_SECRET }, tempDir())).toMatchObject({ serviceMode: 'hall', publish: null });
    const publishing = loadConfig({ JWT_SECRET: VALID_SECRET, PUBLISH_RESULTS: '1', SERVICE_MODE: 'hall' }, tempDir());
    expect(publishing.publish).toEqual({ maxSlotWalKeepSize: '4GB' });
    expect(loadConfig({ JWT_SECRET: VALID_SECRET, SERVICE_MODE: 'public' }, tempDir()).serviceMode).toBe('public');
  });

  it('accepts postgres:// and postgresql:// URLs', () => {
    for (const url of ['postgres://u:p@db:5432/gym', 'postgresql://u:p@db/gym']) {
      expect(loadConfig({ JWT_SECRET: VALID_SECRET, DATABASE_URL: url }, tempDir()).databaseUrl).toBe(url);
    }
  });

  it('generates the JWT secret once into DATA_DIR/jwt-secret (mode 0600) and reuses it', () => {
    const dataDir = path.join(tempDir(), 'data');
    const first = loadConfig({ DATA_DIR: dataDir }, tempDir());
    const file = path.join(dataDir, 'jwt-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(first.jwtSecret);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const second = loadConfig({ DATA_DIR: dataDir }, tempDir());
    expect(second.jwtSecret).toBe(first.jwtSecret);
    // An explicit secret wins and leaves the file alone.
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: VALID_SECRET }, tempDir()).jwtSecret).toBe(VALID_SECRET);
    expect(readFileSync(file, 'utf8')).toBe(first.jwtSecret);
  });

  it('stops the start with one line naming DATA_DIR when it is an empty read-only directory', async () => {
    const readOnly = await readOnlyDirectory();
    try {
      // Without JWT_SECRET (the secret would be generated there) and without DATABASE_URL (the embedded database would live there).
      for (const env of [{}, { JWT_SECRET: VALID_SECRET }]) {
        expect(() => loadConfig({ ...env, DATA_DIR: readOnly.dir }, tempDir())).toThrow(ConfigError);
      }
      // With both given nothing is written there, so a read-only DATA_DIR is fine.
      expect(
        loadConfig({ JWT_SECRET: VALID_SECRET, DATABASE_URL: 'postgres://u:p@db/gym', DATA_DIR: readOnly.dir }, tempDir()).dataDir,
      ).toBe(readOnly.dir);
      const result = await runScript('src/main.ts', [], { DATA_DIR: readOnly.dir }, 20_000);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Invalid configuration: DATA_DIR must be a directory this service can write to/);
      expect(lines[0]).toContain(readOnly.dir);
    } finally {
      await readOnly.dispose();
    }
  });

  it('stops the start with exit code 1 and exactly one line naming PORT', async () => {
    const result = await runScript('src/main.ts', [], { PORT: 'abc', DATA_DIR: tempDir() }, 20_000);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('PORT');
    expect(lines[0]).toContain('abc');
  });
});
