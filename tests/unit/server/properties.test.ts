import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../../src/connectors/stripe/stripe.ts';
import { workspaces } from '../../../src/db/schema.ts';
import { apiErrorBodySchema } from '../../../src/model/api-error.ts';
import { checkDomainFormat } from '../../../src/model/domain-input.ts';
import { FIXTURE_SECRET_KEY, type StripeFixture, startStripeServer } from '../../fixtures/stripe-server.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { pgliteBackend } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

/** Every route that reads a body, a path id or a query; `apiKey` ones take an API key, not a session. */
const ROUTES: { method: string; path: string; apiKey?: true }[] = [
  { method: 'GET', path: '/api/domains' },
  { method: 'GET', path: '/scan/api/v1/scans/stats' },
  { method: 'GET', path: '/api/webhooks' },
  { method: 'POST', path: '/api/domains' },
  { method: 'PATCH', path: '/api/domains/{id}' },
  { method: 'POST', path: '/api/domains/{id}/verify' },
  { method: 'DELETE', path: '/api/domains/{id}' },
  { method: 'GET', path: '/api/domains/{id}/trend' },
  { method: 'POST', path: '/scan/api/v1/scan' },
  { method: 'GET', path: '/scan/api/v1/scan/{id}' },
  { method: 'POST', path: '/scan/api/v1/scan/{id}/cancel' },
  { method: 'GET', path: '/scan/api/v1/scans' },
  { method: 'GET', path: '/api/findings' },
  { method: 'PATCH', path: '/api/findings/{id}' },
  { method: 'POST', path: '/api/webhooks' },
  { method: 'POST', path: '/api/webhooks/{id}/test' },
  { method: 'DELETE', path: '/api/webhooks/{id}' },
  { method: 'POST', path: '/auth/domain' },
  { method: 'PATCH', path: '/auth/settings' },
  { method: 'PATCH', path: '/api/auth/user/profile' },
  { method: 'POST', path: '/api/billing/create-checkout-session' },
  { method: 'POST', path: '/api/billing/webhook' },
  { method: 'POST', path: '/mailing-list' },
  { method: 'GET', path: '/api/keys' },
  { method: 'POST', path: '/api/keys' },
  { method: 'DELETE', path: '/api/keys/{id}' },
  { method: 'GET', path: '/api/v1/domains', apiKey: true },
  { method: 'POST', path: '/api/v1/scans', apiKey: true },
  { method: 'GET', path: '/api/v1/scans', apiKey: true },
  { method: 'GET', path: '/api/v1/scans/{id}', apiKey: true },
  { method: 'GET', path: '/api/v1/findings', apiKey: true },
];

/** Text with the characters that have broken servers before: NUL, controls, quotes, unicode. */
const nastyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '__proto__',
    '127.0.0.1',
    '0x7f000001',
    'localhost',
    '../../etc',
    "' or 1=1 --",
    '%00',
    // Hex and dashes of a uuid's length, but no uuid: PostgreSQL refuses it in an id column.
    '-'.repeat(36),
  ),
);
const nastyJson = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.oneof(
      fc.string(),
      fc.constantFrom('__proto__', 'constructor', 'domain', 'scanConfig', 'settings', 'planId', 'successUrl'),
    ),
    fc.oneof(nastyText, fc.jsonValue()),
  ),
);
const pathId = fc.oneof(
  fc.uuid(),
  nastyText.map((t) => encodeURIComponent(t) || 'x'),
);
const query = fc.dictionary(
  fc.constantFrom('limit', 'offset', 'status', 'q', 'domain', 'state', 'x'),
  nastyText,
);

describe('property: no request makes the API fail (hostile bodies, ids and queries)', () => {
  let user: MintedUser;
  let apiKey: string;
  let stripe: StripeFixture;
  const api = apiSuite(pgliteBackend, async () => {
    stripe = await startStripeServer();
    return {
      billing: {
        stripe: stripeClient(FIXTURE_SECRET_KEY, stripe.url),
        webhookSecret: stripe.webhookSecret,
        prices: stripe.prices,
      },
      scanning: { queue: { enqueue: async () => {} }, queueUp: () => true },
      webhooks: { enqueue: async () => {}, allowPrivate: false },
    };
  });
  afterAll(async () => {
    await stripe?.close();
  });

  beforeAll(async () => {
    // A paid plan, so that every well-formed domain may be added: only the rule can refuse one.
    user = await api.signIn('prop', { email: 'prop@acme-props.com' }, { verify: true });
    await api.db.update(workspaces).set({ tier: 'pro-solo' }).where(eq(workspaces.id, user.uid));
    const created = await api.app.request('/api/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'properties' }),
    });
    apiKey = ((await created.json()) as { secret: string }).secret;
  });

  it('answers every route with a status below 500, and every error in the one error shape', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        pathId,
        query,
        nastyJson,
        async (route, id, params, body) => {
          const search = new URLSearchParams(params as Record<string, string>).toString();
          const path = `${route.path.replace('{id}', id)}${search ? `?${search}` : ''}`;
          const res = await api.app.request(path, {
            method: route.method,
            headers: {
              authorization: `Bearer ${route.apiKey ? apiKey : user.idToken}`,
              'content-type': 'application/json',
            },
            body: route.method === 'GET' || route.method === 'DELETE' ? undefined : JSON.stringify(body),
          });
          expect(res.status, `${route.method} ${path}`).toBeLessThan(500);
          seen.add(Math.floor(res.status / 100));
          if (res.status >= 400) {
            expect(apiErrorBodySchema.safeParse(await res.json()).success, `${route.method} ${path}`).toBe(
              true,
            );
          } else {
            await res.arrayBuffer();
          }
        },
      ),
      { numRuns: 300 },
    );
    // The runs reached the handlers, not only the validation in front of them.
    expect([...seen].sort()).toEqual([2, 4]);
  }, 120_000);

  it('never accepts a domain the one domain rule refuses', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(nastyText, fc.domain(), fc.ipV4(), fc.ipV6()), async (domain) => {
        const res = await api.app.request('/api/domains', {
          method: 'POST',
          headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ domain }),
        });
        expect(res.status).toBeLessThan(500);
        if (res.status === 201) {
          accepted += 1;
          expect(checkDomainFormat(domain).ok, domain).toBe(true);
          const { domain: added } = (await res.json()) as { domain: { id: string } };
          await api.app.request(`/api/domains/${added.id}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${user.idToken}` },
          });
        } else {
          await res.arrayBuffer();
        }
      }),
      { numRuns: 200 },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 120_000);
});
