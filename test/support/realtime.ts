/**
 * Socket.IO and outbox helpers for the live-event tests: collect what a client receives, join
 * rooms, commit events the way commands do, and wait for a given event with a deadline.
 */
import type { Socket } from 'socket.io-client';
import type { CommandRunner } from '../../commands/run-command.js';
import { appendOutboxEvent } from '../../outbox/append.js';
import type { OutboxEvent, ScoreUpdatedPayload } from '../../outbox/events.js';
import type { RelayStatus } from '../../outbox/relay.js';
import type { Pool } from '../../src/db/pool.js';
import { t } from './tables.js';
import { openSocket, waitFor } from './server.js';

export interface ReceivedEvent {
  seq: number;
  source: string;
  eventId: number;
  marker?: string;
  [key: string]: unknown;
}

/** Spec "Events": the fields of event 1 (POST /api/jury-results), sorted. */
export const EVENT_1_FIELDS = [
  'competitionId',
  'disciplineId',
  'disciplineName',
  'eventId',
  'finalScore',
  'firstname',
  'formula',
  'gender',
  'lastname',
  'score',
  'scoreId',
  'squadName',
  'startValue',
  'timestamp',
];
/** Spec "Events": the fields of event 2 (POST /api/scores/save-value, legacy writes), sorted. */
export const EVENT_2_FIELDS = [
  'competitionId',
  'disciplineId',
  'disciplineName',
  'eventId',
  'finalScore',
  'firstname',
  'hasFormula',
  'lastname',
  'participantId',
  'score',
  'scoreId',
  'storedScore',
  'timestamp',
];

/** Exactly the spec's fields plus `seq` and `source` (contract section 5) and `released` (issue 20). */
export function deliveredFieldsOf(specFields: readonly string[]): string[] {
  return [...specFields, 'seq', 'source', 'released'].sort();
}

export interface JoinAck {
  ok: boolean;
  room?: string;
  replayed?: number;
  error?: string;
  retryAfterMs?: number;
}

/** Everything `socket` receives as `score-updated`, in arrival order. */
export function collectEvents(socket: Socket): ReceivedEvent[] {
  const events: ReceivedEvent[] = [];
  socket.on('score-updated', (event: ReceivedEvent) => events.push(event));
  return events;
}

export function joinCompetition(socket: Socket, eventId: number, since?: number): Promise<JoinAck> {
  return socket.timeout(10_000).emitWithAck('join-competition', since === undefined ? { eventId } : { eventId, since });
}

/**
 * A `score-updated` that carries a marker instead of a score: the delivery tests follow single
 * events through the relay, which never looks into payloads, so this is the one place that
 * steps outside the event contract.
 */
export function markerEvent(eventId: number, marker: string, extra: Record<string, unknown> = {}): OutboxEvent {
  return { topic: 'score-updated', eventId, payload: { eventId, marker, ...extra } as unknown as ScoreUpdatedPayload };
}

/** Commits one `score-updated` for `eventId` as a service command would; returns its outbox id. */
export function commitEvent(commands: CommandRunner, eventId: number, marker: string): Promise<number> {
  return commands.run((tx) => appendOutboxEvent(tx, markerEvent(eventId, marker)));
}

/**
 * Commits a marker event and waits until `events` has it. Delivery is in seq order, so after this
 * everything committed earlier for that room has arrived too: the way to prove an event did NOT come.
 */
export async function commitAndAwait(
  commands: CommandRunner,
  events: readonly ReceivedEvent[],
  eventId: number,
  marker: string,
  timeoutMs?: number,
): Promise<ReceivedEvent> {
  await commitEvent(commands, eventId, marker);
  return waitForMarker(events, marker, timeoutMs);
}

export function withMarker(events: readonly ReceivedEvent[], marker: string): ReceivedEvent[] {
  return events.filter((event) => event.marker === marker);
}

/** Resolves with the first event `predicate` accepts, or fails after the deadline. */
export function waitForEvent(
  events: readonly ReceivedEvent[],
  predicate: (event: ReceivedEvent) => boolean,
  timeoutMs = 5_000,
): Promise<ReceivedEvent> {
  return waitFor(() => events.find(predicate), { timeoutMs, message: 'expected score-updated event' });
}

export const waitForMarker = (events: readonly ReceivedEvent[], marker: string, timeoutMs?: number) =>
  waitForEvent(events, (event) => event.marker === marker, timeoutMs);

export function seqsOf(events: readonly ReceivedEvent[]): number[] {
  return events.map((event) => event.seq);
}

export function isStrictlyIncreasing(values: readonly number[]): boolean {
  return values.every((value, index) => index === 0 || value > values[index - 1]!);
}

/** The seqs the outbox holds for one event once the given rows are all numbered. */
export async function sequencedSeqs(pool: Pool, eventId: number): Promise<number[]> {
  const { rows } = await pool.query<{ seq: number }>(
    `SELECT seq FROM ${t.svc_outbox} WHERE event_id = $1 AND seq IS NOT NULL ORDER BY seq`,
    [eventId],
  );
  return rows.map((row) => row.seq);
}

export async function outboxRowCount(pool: Pool, marker: string): Promise<number> {
  const { rows } = await pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${t.svc_outbox} WHERE payload->>'marker' = $1`, [
    marker,
  ]);
  return rows[0]!.count;
}

/** Waits until every committed outbox row is numbered and this relay has delivered up to the last. */
export async function waitUntilDelivered(pool: Pool, relay: { status(): RelayStatus }): Promise<number> {
  return waitFor(
    async () => {
      const { rows } = await pool.query<{ pending: number; last: number }>(
        `SELECT count(*) FILTER (WHERE seq IS NULL)::int AS pending, COALESCE(max(seq), 0) AS last FROM ${t.svc_outbox}`,
      );
      const { pending, last } = rows[0]!;
      return pending === 0 && relay.status().cursor >= last ? last : null;
    },
    { message: 'relay delivered every committed event' },
  );
}

export interface Scoreboard {
  socket: Socket;
  events: ReceivedEvent[];
  /** The server's answer to every join, the first at connect and one per reconnect. */
  joins: JoinAck[];
}

const highestSeq = (events: readonly ReceivedEvent[]) => events.reduce((highest, event) => Math.max(highest, event.seq), 0);

/**
 * A scoreboard as the web board behaves: it joins with `since` = the highest seq it has received,
 * at connect and again at every reconnect, so a restarted server replays what it missed.
 */
export async function openScoreboard(baseUrl: string, eventId: number): Promise<Scoreboard> {
  const socket = await openSocket(baseUrl, { reconnectionDelayMax: 500 });
  const events = collectEvents(socket);
  const joins: JoinAck[] = [];
  // A join cut off by the connection dropping times out on this side; the reconnect joins again.
  const join = () =>
    joinCompetition(socket, eventId, highestSeq(events)).then(
      (ack) => void joins.push(ack),
      () => undefined,
    );
  socket.on('connect', () => void join());
  await join();
  return { socket, events, joins };
}

/** The score-updated events of `eventId` in the outbox, in seq order: what each scoreboard must have received exactly once. */
export async function committedScoreEvents(pool: Pool, eventId: number): Promise<Array<{ seq: number; scoreId: number }>> {
  const { rows } = await pool.query<{ seq: number; scoreId: number }>(
    `SELECT seq, (payload->>'scoreId')::int AS "scoreId" FROM ${t.svc_outbox} WHERE event_id = $1 AND topic = 'score-updated' AND seq IS NOT NULL ORDER BY seq`,
    [eventId],
  );
  return rows;
}

/**
 * Waits until every committed outbox row is numbered and each scoreboard has received up to the
 * last one of `eventId`; returns what they must have received.
 */
export async function waitUntilBoardsCaughtUp(
  pool: Pool,
  eventId: number,
  boards: readonly Scoreboard[],
  timeoutMs = 20_000,
): Promise<Array<{ seq: number; scoreId: number }>> {
  await waitFor(
    async () => {
      const { rows } = await pool.query<{ pending: number }>(`SELECT count(*)::int AS pending FROM ${t.svc_outbox} WHERE seq IS NULL`);
      return rows[0]!.pending === 0;
    },
    { timeoutMs, message: 'every committed outbox row numbered' },
  );
  const committed = await committedScoreEvents(pool, eventId);
  const last = committed.at(-1)?.seq ?? 0;
  await waitFor(() => boards.every((board) => highestSeq(board.events) >= last), {
    timeoutMs,
    message: `every scoreboard received up to seq ${last} (they have ${boards.map((board) => highestSeq(board.events)).join(', ')})`,
  });
  return committed;
}

/** What a scoreboard received, in the shape of `committedScoreEvents`. */
export const receivedScoreEvents = (board: Scoreboard) => board.events.map(({ seq, scoreId }) => ({ seq, scoreId }));
