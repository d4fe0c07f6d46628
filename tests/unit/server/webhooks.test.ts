import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook, WEBHOOK_ATTEMPTS } from '../../../src/core/webhooks/deliver.ts';
import { domains, scans, webhookDeliveries } from '../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../src/model/contract.ts';
import { queueWebhookAlerts } from '../../../src/worker/jobs/webhook-alerts.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { databaseBackends } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const logger = pino({ level: 'silent' });

// The snippet docs/webhooks.md gives receivers, run as they would run it.
const snippet = new URL('../../../docs/examples/verify-webhook.mjs', import.meta.url).href;
const { verifyDangleWatchSignature } = (await import(snippet)) as {
  verifyDangleWatchSignature: (header: string, body: string, secret: string) => boolean;
};

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `webhooks on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let receiver: http.Server;
      let receiverUrl: string;
      let answer = 200;
      const received: Received[] = [];
      const queued: string[] = [];
      const enqueue = async (id: string) => void queued.push(id);
      // The suite's app may deliver to the local receiver; `strict` holds the production rule.
      const api = apiSuite(backend, { webhooks: { enqueue, allowPrivate: ['127.0.0.1'] } });
      const { call, tag } = api;
      let strict: ReturnType<typeof testApp>;
      const strictCall = apiCaller({ request: (path, init) => strict.request(path, init) });
      let ann: MintedUser;
      let bob: MintedUser;

      beforeAll(async () => {
        receiver = http.createServer((req, res) => {
          let body = '';
          req.on('data', (chunk) => {
            body += chunk;
          });
          req.on('end', () => {
            received.push({ headers: req.headers, body });
            res.writeHead(answer).end();
          });
        });
        await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
        receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        strict = testApp(api.database, { auth: api.auth, webhooks: { enqueue, allowPrivate: false } });
        ann = await api.mint('ann', { email: `ann@hooks-${tag}.com` });
        bob = await api.mint('bob', { email: 'bob@bob.com' });
      });
      afterAll(async () => {
        await new Promise((resolve) => receiver?.close(resolve));
      });

      it('needs a signed-in caller', async () => {
        await expectError(await call('/api/webhooks'), 401, 'Authentication required');
        await expectError(
          await call('/api/webhooks', { method: 'POST', body: { url: receiverUrl } }),
          401,
          'Authentication required',
        );
      });

      it.each([
        ['http://127.0.0.1:9/hook', 'Webhook URLs must use https://'],
        ['https://127.0.0.1/hook', 'The webhook address 127.0.0.1 is refused'],
        ['https://169.254.169.254/latest/meta-data', 'The webhook address 169.254.169.254 is refused'],
        ['https://[::1]/hook', 'The webhook address ::1 is refused'],
        ['https://10.0.0.5/hook', 'The webhook address 10.0.0.5 is refused'],
        ['https://user:pw@93.184.216.34/hook', 'must not carry a user name or password'],
        ['ftp://93.184.216.34/hook', 'Webhook URLs must use https://'],
        ['not a url', 'not a valid URL'],
      ])('regression: refuses %s when it is saved', async (url, message) => {
        const res = await strictCall('/api/webhooks', { method: 'POST', token: ann.idToken, body: { url } });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: string }).error).toContain(message);
      });

      it('saves an https URL at a public address, with a secret of its own', async () => {
        const res = await strictCall('/api/webhooks', {
          method: 'POST',
          token: ann.idToken,
          body: { url: 'https://93.184.216.34/dw', format: 'slack' },
        });
        expect(res.status).toBe(201);
        const { webhook } = (await res.json()) as { webhook: { id: string; secret: string; format: string } };
        expect(webhook.format).toBe('slack');
        expect(webhook.secret).toMatch(/^whsec_[\w-]{32}$/);
        expect(
          (await call(`/api/webhooks/${webhook.id}`, { method: 'DELETE', token: bob.idToken })).status,
        ).toBe(404);
        expect(
          (await call(`/api/webhooks/${webhook.id}`, { method: 'DELETE', token: ann.idToken })).status,
        ).toBe(204);
      });

      let hookId: string;
      let secret: string;

      it("'Send test' delivers a signed payload that the documented snippet verifies", async () => {
        const res = await call('/api/webhooks', {
          method: 'POST',
          token: ann.idToken,
          body: { url: receiverUrl },
        });
        ({ id: hookId, secret } = (
          (await res.json()) as { webhook: { id: string; secret: string } }
        ).webhook);
        await expectError(
          await call(`/api/webhooks/${hookId}/test`, { method: 'POST', token: bob.idToken }),
          404,
          'Webhook not found',
        );
        const sent = await call(`/api/webhooks/${hookId}/test`, { method: 'POST', token: ann.idToken });
        expect(sent.status).toBe(202);
        const deliveryId = queued.at(-1) as string;
        expect(await deliverWebhook(api.db, deliveryId, { allowPrivate: ['127.0.0.1'], logger })).toBe(
          'delivered',
        );
        const got = received.at(-1) as Received;
        expect(got.headers['x-danglewatch-event']).toBe('test');
        expect(JSON.parse(got.body)).toMatchObject({ event: 'test' });
        expect(
          verifyDangleWatchSignature(String(got.headers['x-danglewatch-signature']), got.body, secret),
        ).toBe(true);
        expect(
          verifyDangleWatchSignature(String(got.headers['x-danglewatch-signature']), `${got.body} `, secret),
        ).toBe(false);
        expect(
          verifyDangleWatchSignature(String(got.headers['x-danglewatch-signature']), got.body, 'whsec_other'),
        ).toBe(false);
        const log = (await (await call('/api/webhooks', { token: ann.idToken })).json()) as {
          deliveries: { status: string; responseStatus: number; attempts: number }[];
        };
        expect(log.deliveries[0]).toMatchObject({ status: 'delivered', responseStatus: 200, attempts: 1 });
      });

      it('the Slack format posts a message with the text alone', async () => {
        const res = await call('/api/webhooks', {
          method: 'POST',
          token: ann.idToken,
          body: { url: receiverUrl, format: 'slack' },
        });
        const { webhook } = (await res.json()) as { webhook: { id: string } };
        await call(`/api/webhooks/${webhook.id}/test`, { method: 'POST', token: ann.idToken });
        expect(
          await deliverWebhook(api.db, queued.at(-1) as string, {
            allowPrivate: ['127.0.0.1'],
            logger,
          }),
        ).toBe('delivered');
        expect(JSON.parse((received.at(-1) as Received).body)).toEqual({
          text: 'DangleWatch test delivery: this webhook works.',
        });
        expect(
          (await call(`/api/webhooks/${webhook.id}`, { method: 'DELETE', token: ann.idToken })).status,
        ).toBe(204);
      });

      it(`retries after a 500 and gives up after ${WEBHOOK_ATTEMPTS} attempts, the log saying so`, async () => {
        answer = 500;
        try {
          await call(`/api/webhooks/${hookId}/test`, { method: 'POST', token: ann.idToken });
          const deliveryId = queued.at(-1) as string;
          const outcomes = [];
          for (let i = 0; i < WEBHOOK_ATTEMPTS; i++) {
            outcomes.push(await deliverWebhook(api.db, deliveryId, { allowPrivate: ['127.0.0.1'], logger }));
          }
          expect(outcomes).toEqual([...Array(WEBHOOK_ATTEMPTS - 1).fill('retry'), 'failed']);
          const [row] = await api.db
            .select()
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.id, deliveryId));
          expect(row).toMatchObject({ status: 'failed', attempts: WEBHOOK_ATTEMPTS, responseStatus: 500 });
          expect(row?.error).toBe(
            `Gave up after ${WEBHOOK_ATTEMPTS} attempts: the endpoint answered HTTP 500`,
          );
        } finally {
          answer = 200;
        }
      });

      it('regression: a URL that became private is refused at delivery, without connecting', async () => {
        await call(`/api/webhooks/${hookId}/test`, { method: 'POST', token: ann.idToken });
        const before = received.length;
        expect(await deliverWebhook(api.db, queued.at(-1) as string, { allowPrivate: false, logger })).toBe(
          'failed',
        );
        expect(received.length).toBe(before);
      });

      it("queues one delivery per webhook for a scan's alert-worthy changes, never twice", async () => {
        const [domain] = await api.db
          .insert(domains)
          .values({
            workspaceId: ann.uid,
            domain: `hooks-${tag}.com`,
            verificationToken: 'j'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        const ref = {
          subdomain: `old.hooks-${tag}.com`,
          recordType: 'CNAME' as const,
          target: 'gone.herokuapp.com',
          service: 'Heroku',
          status: 'claimable' as const,
        };
        const [scan] = await api.db
          .insert(scans)
          .values({
            workspaceId: ann.uid,
            domainId: domain?.id,
            domain: `hooks-${tag}.com`,
            status: 'completed',
            changes: { new: [ref], changed: [], resolved: [], stillOpen: 0 },
          })
          .returning();
        const deps = {
          publicUrl: 'https://dw.example.net',
          enqueue: async (id: string) => void queued.push(id),
        };
        expect(await queueWebhookAlerts(api.db, scan?.id as string, deps)).toBe(1);
        expect(await queueWebhookAlerts(api.db, scan?.id as string, deps)).toBe(0);
        expect(
          await deliverWebhook(api.db, queued.at(-1) as string, {
            allowPrivate: ['127.0.0.1'],
            logger,
          }),
        ).toBe('delivered');
        const payload = JSON.parse((received.at(-1) as Received).body);
        expect(payload).toMatchObject({
          event: 'scan.changes',
          domain: `hooks-${tag}.com`,
          new: [ref],
          resolved: [],
        });
        expect(payload.scanUrl).toBe(
          `https://dw.example.net/dashboard?section=scans&scan=${scan?.id}&workspace=${ann.uid}`,
        );
        // The domain's webhook channel turned off: nothing queued.
        await api.db
          .update(domains)
          .set({ alertsWebhook: false })
          .where(eq(domains.id, domain?.id as string));
        const [again] = await api.db
          .insert(scans)
          .values({
            workspaceId: ann.uid,
            domainId: domain?.id,
            domain: `hooks-${tag}.com`,
            status: 'completed',
            changes: { new: [ref], changed: [], resolved: [], stillOpen: 0 },
          })
          .returning();
        expect(await queueWebhookAlerts(api.db, again?.id as string, deps)).toBe(0);
      });
    },
  );
}
