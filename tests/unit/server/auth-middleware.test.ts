import { Hono } from 'hono';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { demoFirebaseConfig } from '../../../src/model/firebase-config.ts';
import { type AuthedEnv, requireAuth } from '../../../src/server/auth/middleware.ts';
import type { DecodedIdToken } from '../../../src/server/auth/verifier.ts';
import { ApiError } from '../../../src/server/errors.ts';

/** requireAuth with a verifier that fails the way firebase-admin does. */
function appFailingWith(code: string) {
  const app = new Hono<AuthedEnv>();
  app.use(async (c, next) => {
    c.set('logger', pino({ level: 'silent' }));
    await next();
  });
  app.get(
    '/x',
    requireAuth({
      verifier: {
        verifyIdToken: async (): Promise<DecodedIdToken> => {
          throw Object.assign(new Error('nope'), { code });
        },
        deleteUser: async () => {},
        close: async () => {},
      },
      publicConfig: { firebase: demoFirebaseConfig() },
    }),
    (c) => c.text('in'),
  );
  app.onError((error, c) =>
    error instanceof ApiError
      ? c.json({ code: error.code, error: error.message }, error.status)
      : c.text('?', 500),
  );
  return app;
}

describe('requireAuth error mapping', () => {
  it.each([
    ['auth/argument-error', 401, 'INVALID_TOKEN'],
    ['auth/id-token-expired', 401, 'TOKEN_EXPIRED'],
    ['auth/id-token-revoked', 401, 'INVALID_TOKEN'],
    ['auth/user-disabled', 403, 'ACCESS_DENIED'],
    ['app/network-error', 503, 'AUTH_UNAVAILABLE'],
    ['auth/internal-error', 503, 'AUTH_UNAVAILABLE'],
  ])('%s → %i %s', async (code, status, apiCode) => {
    const res = await appFailingWith(code).request('/x', { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { code: string }).code).toBe(apiCode);
  });
});
