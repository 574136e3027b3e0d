/**
 * Issue 16, "One process": `npm start` runs the compiled service (dist/, no TypeScript loader),
 * and SIGTERM to the PID of `npm start` stops the service and its embedded PostgreSQL: within
 * 10 s both ports and the data directory are free, no postgres process of that data directory
 * remains, and the next `npm start` works.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.js';
import { childEnv, processesOfCluster, PROJECT_ROOT, stopClusterProcesses } from '../support/process.js';
import { waitFor } from '../support/server.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gym-npm-start-'));
const clusterDir = path.join(dataDir, 'pg');
const started: number[] = [];

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

beforeAll(async () => {
  // What `npm start`'s prestart does first (incremental: quick when dist/ is current).
  await promisify(execFile)(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: PROJECT_ROOT,
  });
}, 240_000);

afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // A service left behind by a failed round: it is the process started with this DATA_DIR.
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DATA_DIR=${dataDir}`))
        process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
  await stopClusterProcesses(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

async function npmStart(env: Record<string, string>) {
  // --ignore-scripts skips prestart (built in beforeAll); npm still runs `start` itself.
  const npm = spawn('npm', ['start', '--ignore-scripts'], { cwd: PROJECT_ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm.pid!);
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => npm.once('close', (code) => resolve(code)));
  const url = `http://127.0.0.1:${env.PORT}`;
  await waitFor(
    async () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output}`);
      return fetch(`${url}/api/system/health`).then(
        (response) => response.status === 200,
        () => false,
      );
    },
    { timeoutMs: 90_000, message: 'health 200 from npm start' },
  );
  return { npm, closed, output: () => output };
}

describe('npm start', () => {
  it('runs compiled JavaScript, and SIGTERM to its PID frees both ports and the data directory within 10 s; the next start works', async () => {
    const env = {
      DATA_DIR: dataDir,
      EMBEDDED_DB_PORT: String(await freePort()),
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    for (const round of [1, 2]) {
      const { npm, closed, output } = await npmStart(env);
      // The service is node running dist/, with no TypeScript loader.
      const service = readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
          } catch {
            return '';
          }
        })
        .find((command) => command.includes('dist/src/main.js'));
      expect(service, 'a node process running dist/src/main.js').toBeDefined();
      expect(service).not.toMatch(/tsx/);
      expect(processesOfCluster(clusterDir).length).toBeGreaterThan(0);

      npm.kill('SIGTERM');
      const signalled = Date.now();
      await waitFor(
        async () =>
          processesOfCluster(clusterDir).length === 0 && (await canBind(Number(env.PORT))) && (await canBind(Number(env.EMBEDDED_DB_PORT))),
        {
          timeoutMs: 10_000,
          message: `round ${round}: ports and data directory free within 10 s of SIGTERM; left: ${JSON.stringify(processesOfCluster(clusterDir))}`,
        },
      );
      const freedMs = Date.now() - signalled;
      await closed;
      expect(readdirSync(clusterDir)).not.toContain('postmaster.pid');
      expect(output()).not.toMatch(/EADDRINUSE|"level":(50|60)/);
      console.log(`round ${round}: everything free ${freedMs} ms after SIGTERM to npm start`);
    }
  }, 300_000);
});
