import type { OutboxDelivery } from '../../outbox/relay.js';

/** A kind of room: its name, and what its sockets get of a delivery (null: nothing). */
export interface Channel {
  room: string;
  message(delivery: OutboxDelivery): [topic: string, message: unknown] | null;
}
