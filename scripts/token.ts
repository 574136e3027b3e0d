// `npm run token -- --sub NAME --role admin|head|jury [--hours N]`: prints a bearer token signed with JWT_SECRET
// (or the secret kept in ./.data/jwt-secret), the same secret the server verifies with.
import { parseArgs } from 'node:util';
import { createSigner } from 'fast-jwt';
import { ConfigError, loadConfig } from '../src/config.js';
import { ROLES, type Role } from '../src/http/auth.js';

function fail(message: string): never {
  console.error(message);
  console.error('usage: npm run token -- --sub NAME --role admin|head|jury [--hours N]');
  process.exit(1);
}

const { values } = parseArgs({
  options: { sub: { type: 'string' }, role: { type: 'string' }, hours: { type: 'string', default: '12' } },
  strict: true,
});
if (!values.sub) fail('--sub is required');
if (!values.role || !ROLES.includes(values.role as Role)) fail(`--role must be one of ${ROLES.join(', ')}`);
const hours = Number(values.hours);
if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 366) fail('--hours must be a positive number of hours (at most a year)');

try {
  const config = loadConfig();
  const sign = createSigner({ key: config.jwtSecret, algorithm: 'HS256', expiresIn: Math.round(hours * 3_600_000) });
  console.log(sign({ sub: values.sub, role: values.role }));
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}
