import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hostileInput } from '../../../src/core/validation.ts';
import type { Database } from '../../../src/db/client.ts';
import { demoFirebaseConfig } from '../../../src/model/firebase-config.ts';
import { firebaseTokenVerifier, type TokenVerifier } from '../../../src/server/auth/verifier.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { testApp } from '../../helpers/app.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import {
  type MintedUser,
  mintIdToken,
  TEST_PROJECT_ID,
  waitForAuthEmulator,
} from '../../helpers/emulator.ts';

const emulatorHost = inject('authEmulatorHost');
process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;

describe('hostileInput', () => {
  it.each([
    [{ name: 'ok\ttab and\nline' }, undefined],
    [{ name: 'a\u0000b' }, 'name'],
    [{ list: ['fine', 'bad\u001b[31m'] }, 'list.1'],
    [{ nested: { deep: '\u007f' } }, 'nested.deep'],
    [JSON.parse('{"__proto__": {"admin": true}}'), '__proto__'],
    [{ settings: { constructor: 1 } }, 'settings.constructor'],
    [{ 'key\u0000': 1 }, 'key\u0000'],
  ])('%j → %s', (value, path) => {
    expect(hostileInput(value)?.path).toBe(path);
  });
});

const backend = databaseBackends[0];
describe('regression: hostile text answers 400 naming the field, never 500', () => {
  let database: Database;
  let verifier: TokenVerifier;
  let app: ReturnType<typeof testApp>;
  const call = apiCaller({ request: (path, init) => app.request(path, init) });
  let ann: MintedUser;

  beforeAll(async () => {
    await waitForAuthEmulator(emulatorHost);
    if (!backend) throw new Error('no PGlite');
    database = await backend.open();
    verifier = firebaseTokenVerifier(TEST_PROJECT_ID);
    app = testApp(database, { auth: { verifier, publicConfig: { firebase: demoFirebaseConfig() } } });
    ann = await mintIdToken(emulatorHost, { sub: `hostile-${Date.now()}`, email: 'ann@acme.com' });
  });
  afterAll(async () => {
    await verifier?.close();
    await database?.close();
  });

  it.each([
    ['PATCH', '/api/auth/user/profile', { displayName: 'Ann\u0000' }, 'displayName'],
    ['PATCH', '/auth/settings', { settings: { theme: 'dark\u0000' } }, 'settings.theme'],
    [
      'PATCH',
      '/auth/settings',
      JSON.parse('{"settings": {"__proto__": {"tier": "pro-solo"}}}'),
      'settings.__proto__',
    ],
    ['POST', '/mailing-list', { email: 'a\u0000@acme.com', source: 'home' }, 'email'],
    ['POST', '/api/domains', { domain: 'acme.com\u0000' }, 'domain'],
  ])('%s %s', async (method, path, body, field) => {
    const res = await call(path, { method, token: ann.idToken, body });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: string; code: string };
    expect(answer.code).toBe('VALIDATION_ERROR');
    expect(answer.error.startsWith(`${field}:`)).toBe(true);
  });

  it('POST /auth/domain uses the one domain rule: no IP literals or reserved names', async () => {
    for (const domain of ['127.0.0.1', '0x7f000001', 'localhost', 'printer.local', 'db.internal']) {
      const res = await call('/auth/domain', { method: 'POST', token: ann.idToken, body: { domain } });
      expect(res.status, domain).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(`Invalid domain format: ${domain}`);
    }
    const ok = await call('/auth/domain', {
      method: 'POST',
      token: ann.idToken,
      body: { domain: 'Acme.COM' },
    });
    expect(await ok.json()).toEqual({ domain: 'acme.com' });
  });

  it.each([
    ['GET', '/api/domains/{id}/trend', 'Domain not found'],
    ['DELETE', '/api/domains/{id}', 'Domain not found'],
    ['PATCH', '/api/findings/{id}', 'Finding not found'],
    ['DELETE', '/api/webhooks/{id}', 'Webhook not found'],
  ])(
    '%s %s with an id of uuid length that is no uuid answers 404, not a database error',
    async (method, path, message) => {
      const res = await call(path.replace('{id}', '-'.repeat(36)), {
        method,
        token: ann.idToken,
        body: method === 'PATCH' ? { accepted: true } : undefined,
      });
      await expectError(res, 404, message);
    },
  );
});
