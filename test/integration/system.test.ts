import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('system endpoints', () => {
  it('reports version and build information as the spec lists', async () => {
    const response = await fetch(`${server.url}/api/system/version`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      name: 'gym-competition-service',
      version: expect.any(String),
      description: expect.any(String),
      environment: expect.any(String),
      nodeVersion: process.version,
    });
    expect(Object.keys(body.build).sort()).toEqual(['buildDate', 'buildTimestamp', 'gitBranch', 'gitCommitDate', 'gitHash']);
    expect(new Date(body.build.buildTimestamp).toISOString()).toBe(body.build.buildTimestamp);
  });

  it('answers health 200 with the database up and the relay listening', async () => {
    const response = await fetch(`${server.url}/api/system/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', database: 'up', relay: 'listening', uptimeSeconds: expect.any(Number) });
  });
});
