/**
 * Migration 0014: the sequencer's numbering notifies the relays of other instances, and nobody while
 * no other instance listens (its own relay delivers the rows the numbering returned). Notifications
 * stay latency hints either way; what is asserted here is who gets them.
 */
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTEN_APPLICATION_NAME } from '../../outbox/listener.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { collectEvents, commitAndAwait, joinCompetition } from '../support/realtime.js';
import { openSocket, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { t } from '../support/tables.js';

let database: TestDatabase;
let server: TestServer;
const clients: pg.Client[] = [];
const sockets: Socket[] = [];

/** A LISTEN connection on the outbox channel that records the seqs the numbering announces. */
async function listener(applicationName: string): Promise<{ client: pg.Client; announced: number[] }> {
  const client = new pg.Client({ connectionString: database.url, application_name: applicationName });
  client.on('error', () => undefined);
  clients.push(client);
  await client.connect();
  const announced: number[] = [];
  client.on('notification', (notification) => {
    if (notification.channel === t.outboxChannel && /^\d+$/.test(notification.payload ?? '')) announced.push(Number(notification.payload));
  });
  await client.query(`LISTEN "${t.outboxChannel}"`);
  return { client, announced };
}

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startTestServer({ database });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  for (const client of clients) await client.end().catch(() => undefined);
  await server?.stop();
  await database?.drop();
});

describe('who the numbering notifies', () => {
  it('nobody while this instance listens alone; every listener once another instance listens', async () => {
    const socket = await openSocket(server.url);
    sockets.push(socket);
    const events = collectEvents(socket);
    await joinCompetition(socket, 20);
    // Not an instance of the service (its name lacks the listeners' prefix), so it does not count.
    const bystander = await listener('test-bystander');

    for (const marker of ['alone-1', 'alone-2', 'alone-3']) await commitAndAwait(server.commands, events, 20, marker);
    // A round trip on the bystander's connection: notifications committed before it have arrived.
    await bystander.client.query('SELECT 1');
    expect(bystander.announced).toEqual([]);

    const peer = await listener(`${LISTEN_APPLICATION_NAME}:test-peer`);
    let round = 0;
    const announcedSeq = await waitFor(
      async () => {
        const delivered = await commitAndAwait(server.commands, events, 20, `with-peer-${round++}`);
        await peer.client.query('SELECT 1');
        return peer.announced.includes(delivered.seq) ? delivered.seq : null;
      },
      { timeoutMs: 10_000, message: 'the numbering notifies once another instance listens' },
    );
    await bystander.client.query('SELECT 1');
    expect(bystander.announced).toContain(announcedSeq);
  });
});
