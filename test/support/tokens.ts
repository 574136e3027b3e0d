import { createSigner } from 'fast-jwt';
import { TEST_JWT_SECRET } from './server.js';

/** Signs claims the way `npm run token` does, with the secret every test server uses; valid one hour. */
export const signWithTestSecret = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256', expiresIn: 3_600_000 });
export const adminToken = signWithTestSecret({ sub: 'anna', role: 'admin' });
export const juryToken = signWithTestSecret({ sub: 'judge-1', role: 'jury' });
export const foreignToken = createSigner({ key: 'another-secret-that-is-long-enough', algorithm: 'HS256' })({ sub: 'anna', role: 'admin' });

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
export const headToken = signWithTestSecret({ sub: 'oberkampfrichter', role: 'head' });
