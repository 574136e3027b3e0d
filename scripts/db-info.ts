// `npm run db:info`: what the legacy desktop program connects with. Without DATABASE_URL that is
// the embedded server (EMBEDDED_DB_HOST, EMBEDDED_DB_PORT) with the `desktop` role, whose password
// this creates on first use (DATA_DIR/desktop-password, mode 0600); the service sets it at start.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';
import { desktopConnection, type DesktopConnection } from '../src/db/database.js';
import { networkInfo } from '../src/firewall/network-info.js';

function fromDatabaseUrl(raw: string): DesktopConnection {
  const url = new URL(raw);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.slice(1)),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    url: raw,
  };
}

try {
  const config = loadConfig();
  const lanAddresses = networkInfo()
    .interfaces.filter((entry) => !entry.internal && entry.family === 'IPv4')
    .map((entry) => entry.address);
  const connection = config.databaseUrl ? fromDatabaseUrl(config.databaseUrl) : desktopConnection(config, lanAddresses);
  const lines = [
    `host:     ${connection.host}`,
    `port:     ${connection.port}`,
    `database: ${connection.database}`,
    `user:     ${connection.user}`,
    `password: ${connection.password}`,
    `url:      ${connection.url}`,
  ];
  if (config.databaseUrl) {
    lines.push('', 'DATABASE_URL is set: the desktop program uses that database, with a role its administrator gives it.');
  } else {
    const { host } = config.embeddedDb;
    if (host === '0.0.0.0' || host === '::')
      lines.push(
        '',
        `The server listens on every address (EMBEDDED_DB_HOST=${host}); LAN addresses: ${lanAddresses.join(', ') || 'none'}.`,
      );
    else if (host.startsWith('127.') || host === '::1')
      lines.push(
        '',
        'Reachable from this computer only; set EMBEDDED_DB_HOST to a LAN address (or 0.0.0.0) for a desktop program on another PC.',
      );
    if (!existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION')))
      lines.push('The embedded server has not been started yet: run `npm start` once, it creates the role.');
  }
  console.log(lines.join('\n'));
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
