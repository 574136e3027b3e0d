import type { Logger } from 'pino';
import type { RelayStatus } from '../src/app.js';
import type { Pool } from '../src/db/pool.js';
import { tablePrefix } from '../src/db/tables.js';
import { OutboxListener } from './listener.js';

export interface OutboxRelayOptions {
  connectionString: string;
  pool: Pool;
  logger: Logger;
}

export class OutboxRelay {
  private readonly listener: OutboxListener;
  private delivered = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.listener = new OutboxListener({
      connectionString: options.connectionString,
      channel: `${tablePrefix()}svc_outbox`,
      logger: options.logger,
      onWake: () => undefined,
    });
  }

  status(): RelayStatus {
    return { state: this.listener.state, delivered: this.delivered };
  }

  async start(): Promise<void> {
    await this.listener.start();
  }

  async stop(): Promise<void> {
    await this.listener.stop();
  }
}
