import { beforeAll, describe, expect, it } from 'vitest';
import { hostileInput } from '../../../src/core/validation.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { pgliteBackend } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

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

describe('regression: hostile text answers 400 naming the field, never 500', () => {
  const api = apiSuite(pgliteBackend);
  const { call } = api;
  let ann: MintedUser;

  beforeAll(async () => {
    ann = await api.mint('hostile', { email: 'ann@acme.com' });
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
    const answer = (await res.json()) as { error: string; code: string; details: { path: string }[] };
    expect(answer.code).toBe('VALIDATION_ERROR');
    expect(answer.error).toMatch(/^The .* (must not hold control characters|is not an allowed key)$/);
    expect(answer.details[0]?.path).toBe(field);
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
        body: method === 'PATCH' ? { accepted: false } : undefined,
      });
      await expectError(res, 404, message);
    },
  );
});
