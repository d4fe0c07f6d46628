import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { queryRows } from '../../../src/db/client.ts';
import { apiErrorBodySchema } from '../../../src/model/api-error.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `POST /mailing-list on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let app: ReturnType<typeof testApp>;
      let client = 0;

      beforeAll(async () => {
        database = await backend.open();
        app = testApp(database, {
          limits: { mailingList: { name: 'mailing-list', limit: 3, windowSeconds: 60 } },
        });
      });
      afterAll(() => database?.close());

      /** Each test speaks from its own address so the rate limit only bites where a test wants it. */
      const post = (body: string, headers: Record<string, string> = {}, from = `10.0.0.${++client}`) =>
        app.request('/mailing-list', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...headers },
          body,
        });

      const signup = (email: string) =>
        JSON.stringify({ email, source: 'trust-security', timestamp: new Date().toISOString() });

      it('stores a sign-up and answers 201', async () => {
        const res = await post(signup('founder@example.com'));
        expect(res.status).toBe(201);
        const rows = await queryRows<{ email: string; source: string }>(
          database.db,
          (await import('drizzle-orm'))
            .sql`select email, source from mailing_list_signups where email = 'founder@example.com'`,
        );
        expect(rows).toEqual([{ email: 'founder@example.com', source: 'trust-security' }]);
      });

      it('answers 409 for the same address in another case', async () => {
        expect((await post(signup('dup@example.com'))).status).toBe(201);
        const res = await post(signup('DUP@Example.com'));
        expect(res.status).toBe(409);
        expect(apiErrorBodySchema.parse(await res.json()).code).toBe('ALREADY_SUBSCRIBED');
      });

      it.each([
        ['a missing e-mail', { source: 'trust-security' }, 'email'],
        ['a malformed e-mail', { email: 'not-an-email', source: 'trust-security' }, 'email'],
        ['a one-letter tld', { email: 'a@b.c', source: 'trust-security' }, 'email'],
        ['a missing source', { email: 'x@example.com' }, 'source'],
        ['a bad timestamp', { email: 'x@example.com', source: 'home', timestamp: 'yesterday' }, 'timestamp'],
      ])('answers 400 naming the field for %s', async (_, body, field) => {
        const res = await post(JSON.stringify(body));
        expect(res.status).toBe(400);
        const error = apiErrorBodySchema.parse(await res.json());
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.error).toContain(field);
      });

      it('answers 400 for malformed JSON', async () => {
        const res = await post('{"email":');
        expect(res.status).toBe(400);
        expect(apiErrorBodySchema.parse(await res.json()).code).toBe('INVALID_JSON');
      });

      it('answers 415 for a body that is not JSON', async () => {
        const res = await post('email=a@example.com', {
          'content-type': 'application/x-www-form-urlencoded',
        });
        expect(res.status).toBe(415);
      });

      it('answers 413 for an over-large body and stores nothing', async () => {
        const res = await post(JSON.stringify({ email: `${'a'.repeat(5000)}@example.com`, source: 'x' }));
        expect(res.status).toBe(413);
        // In words, never 'The request body is larger than 4 KB'.
        expect(await res.json()).toMatchObject({
          code: 'PAYLOAD_TOO_LARGE',
          error: 'That is more text than this form takes: at most 4,096 characters in all',
        });
        const [row] = await queryRows<{ n: number }>(
          database.db,
          (await import('drizzle-orm'))
            .sql`select count(*)::int as n from mailing_list_signups where length(email) > 1000`,
        );
        expect(row?.n).toBe(0);
      });

      it('answers 429 with X-RateLimit-Reset once a client exceeds its budget', async () => {
        const from = '192.0.2.77';
        const statuses: number[] = [];
        let last: Response | undefined;
        for (let i = 0; i < 4; i++) {
          last = await post(signup(`burst${i}@example.com`), {}, from);
          statuses.push(last.status);
        }
        expect(statuses).toEqual([201, 201, 201, 429]);
        const reset = Number(last?.headers.get('x-ratelimit-reset'));
        expect(reset).toBeGreaterThan(Date.now() / 1000);
        expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
        expect(apiErrorBodySchema.parse(await last?.json()).error).toBe('Rate limit exceeded');
        // Another address is not affected.
        expect((await post(signup('other@example.com'), {}, '192.0.2.78')).status).toBe(201);
      });

      it('regression: behind the proxy, the client cannot pick its address in X-Forwarded-For', async () => {
        const statuses: number[] = [];
        // The left entries are the client's to write; the proxy appends the real address on the right.
        for (let i = 0; i < 4; i++) {
          statuses.push(
            (await post(signup(`spoof${i}@example.com`), {}, `203.0.113.${i}, 192.0.2.99`)).status,
          );
        }
        expect(statuses).toEqual([201, 201, 201, 429]);
      });
    },
  );
}
