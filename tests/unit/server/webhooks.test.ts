import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../src/core/mail/mailer.ts';
import { deliverWebhook, WEBHOOK_ATTEMPTS } from '../../../src/core/webhooks/deliver.ts';
import { queueWebhookAlerts } from '../../../src/core/webhooks/scan-changes.ts';
import { domains, scans, webhookDeliveries, workspaceMembers } from '../../../src/db/schema.ts';
import { CONNECTION_MESSAGES } from '../../../src/model/connections.ts';
import { DEFAULT_SCAN_CONFIG, type WebhookView } from '../../../src/model/contract.ts';
import { WEBHOOK_MESSAGES } from '../../../src/model/webhooks.ts';
import { apiCaller, expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { testApp } from '../../helpers/app.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';
import { insertTeam } from '../../helpers/teams.ts';

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

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `webhooks on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let receiver: http.Server;
      let receiverUrl: string;
      let answer = 200;
      const received: Received[] = [];
      const queued: string[] = [];
      const enqueue = async (id: string) => void queued.push(id);
      const outbox = mkdtempSync(join(tmpdir(), 'dw-webhooks-'));
      // The suite's app may deliver to the local receiver; `strict` holds the production rule.
      const api = apiSuite(backend, {
        webhooks: { enqueue, allowPrivate: ['127.0.0.1'] },
        publicUrl: 'https://dw.example',
        mailer: createMailer({ from: 'DangleWatch <dw@example>', outboxDir: outbox, logger }),
      });
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
        rmSync(outbox, { recursive: true, force: true });
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
        ['http://127.0.0.1:9/hook', WEBHOOK_MESSAGES.httpsOnly],
        ['https://127.0.0.1/hook', 'The webhook address 127.0.0.1 is refused'],
        ['https://169.254.169.254/latest/meta-data', 'The webhook address 169.254.169.254 is refused'],
        ['https://[::1]/hook', 'The webhook address ::1 is refused'],
        ['https://10.0.0.5/hook', 'The webhook address 10.0.0.5 is refused'],
        ['https://user:pw@93.184.216.34/hook', 'must not carry a user name or password'],
        ['ftp://93.184.216.34/hook', WEBHOOK_MESSAGES.httpsOnly],
        ['not a url', 'not a valid URL'],
      ])('regression: refuses %s when it is saved', async (url, message) => {
        const res = await strictCall('/api/webhooks', { method: 'POST', token: ann.idToken, body: { url } });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: string }).error).toContain(message);
      });

      it('regression: plain http:// to a public address is refused, even where test receivers may use it', async () => {
        for (const url of ['http://93.184.216.34/hook', 'HTTP://93.184.216.34:8080/hook']) {
          await expectError(
            await call('/api/webhooks', { method: 'POST', token: ann.idToken, body: { url } }),
            400,
            WEBHOOK_MESSAGES.httpsOnly,
            'VALIDATION_ERROR',
          );
        }
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

      it("regression: a removed admin's webhook, a demoted one's, and one whose adder deleted their account get no more deliveries; the owners are told once each time, and an admin re-enables it", async () => {
        const olga = await api.signIn('olga', { email: `olga-${tag}@acme.com`, name: 'Olga' });
        const mal = await api.signIn('mal', { email: `mal-${tag}@acme.com`, name: 'Mal' });
        const ned = await api.signIn('ned', { email: `ned-${tag}@acme.com`, name: 'Ned' });
        const team = await insertTeam(api, { name: 'Crew', tier: 'intro' }, [
          [olga, 'owner'],
          [mal, 'admin'],
          [ned, 'admin'],
        ]);
        const addHook = async (user: MintedUser, path: string) => {
          const res = await team.as(user, '/api/webhooks', {
            method: 'POST',
            body: { url: `${receiverUrl}/${path}` },
          });
          expect(res.status).toBe(201);
          return ((await res.json()) as { webhook: WebhookView }).webhook;
        };
        const listed = async () =>
          ((await (await team.as(olga, '/api/webhooks')).json()) as { webhooks: WebhookView[] }).webhooks;
        const mailsTo = (to: string) =>
          readdirSync(outbox)
            .map((name) => readFileSync(join(outbox, name), 'utf8'))
            .filter((mail) => mail.toLowerCase().includes(`to: ${to.toLowerCase()}`))
            .map((mail) =>
              mail
                .replace(/=\r?\n/g, '')
                .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
                  String.fromCharCode(Number.parseInt(hex, 16)),
                ),
            );
        const [domain] = await api.db
          .insert(domains)
          .values({
            workspaceId: team.id,
            domain: `crew-${tag}.com`,
            verificationToken: 'c'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        const changedScan = async () => {
          const [scan] = await api.db
            .insert(scans)
            .values({
              workspaceId: team.id,
              domainId: domain?.id,
              domain: `crew-${tag}.com`,
              status: 'completed',
              changes: {
                new: [
                  {
                    subdomain: `old.crew-${tag}.com`,
                    recordType: 'CNAME' as const,
                    target: 'gone.herokuapp.com',
                    service: 'Heroku',
                    status: 'claimable' as const,
                  },
                ],
                changed: [],
                resolved: [],
                stillOpen: 0,
              },
            })
            .returning();
          await queueWebhookAlerts(api.db, scan?.id as string, { publicUrl: 'https://dw.example', enqueue });
          const rows = await api.db
            .select({ webhookId: webhookDeliveries.webhookId })
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.scanId, scan?.id as string));
          return rows.map((r) => r.webhookId).sort();
        };

        const malHook = await addHook(mal, 'mal');
        const nedHook = await addHook(ned, 'ned');
        const olgaHook = await addHook(olga, 'olga');
        expect(malHook.disabled).toBeNull();
        // A test queued while Mal was still an admin, not yet delivered.
        expect((await team.as(mal, `/api/webhooks/${malHook.id}/test`, { method: 'POST' })).status).toBe(202);
        const pending = queued.at(-1) as string;

        // Olga removes Mal: Mal's webhook is disabled, not deleted, and says why.
        expect(
          (await team.as(olga, `/api/workspaces/${team.id}/members/${mal.uid}`, { method: 'DELETE' })).status,
        ).toBe(204);
        const gone = CONNECTION_MESSAGES.answererGone(`Mal (mal-${tag}@acme.com)`);
        expect((await listed()).map((h) => [h.id, h.disabled?.reason ?? null])).toEqual([
          [malHook.id, gone],
          [nedHook.id, null],
          [olgaHook.id, null],
        ]);
        const before = received.length;
        expect(await deliverWebhook(api.db, pending, { allowPrivate: ['127.0.0.1'], logger })).toBe('failed');
        expect(received.length).toBe(before);
        const [log] = await api.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, pending));
        expect(log?.error).toBe(`The webhook was disabled: ${gone}`);
        // The owner hears of it once, with the webhook and the way to re-enable it.
        const [removalMail, ...more] = mailsTo(`olga-${tag}@acme.com`);
        expect(more).toEqual([]);
        expect(removalMail).toContain('Subject: A webhook of Crew was disabled');
        expect(removalMail).toContain(`${receiverUrl}/mal`);
        expect(removalMail).toContain(gone);
        expect(removalMail).toContain(
          `https://dw.example/dashboard?section=settings&tab=alerts&workspace=${team.id}`,
        );
        expect(mailsTo(`ned-${tag}@acme.com`)).toEqual([]);

        // Ned is made a member: the webhook Ned added as an admin is disabled too.
        expect(
          (
            await team.as(olga, `/api/workspaces/${team.id}/members/${ned.uid}`, {
              method: 'PATCH',
              body: { role: 'member' },
            })
          ).status,
        ).toBe(200);
        const demoted = CONNECTION_MESSAGES.answererDemoted(`Ned (ned-${tag}@acme.com)`, 'member');
        expect((await listed()).find((h) => h.id === nedHook.id)?.disabled?.reason).toBe(demoted);
        expect(mailsTo(`olga-${tag}@acme.com`)).toHaveLength(2);
        expect(mailsTo(`olga-${tag}@acme.com`).at(-1)).toContain(`${receiverUrl}/ned`);

        // A scan's changes reach the owner's webhook alone.
        expect(await changedScan()).toEqual([olgaHook.id]);
        const refused = await team.as(olga, `/api/webhooks/${malHook.id}/test`, { method: 'POST' });
        await expectError(refused, 409, WEBHOOK_MESSAGES.disabledTest, 'WEBHOOK_DISABLED');

        // Re-enabling is an admin's: Ned no longer may; Olga does, through PATCH.
        const enable = (user: MintedUser, body: unknown) =>
          team.as(user, `/api/webhooks/${malHook.id}`, { method: 'PATCH', body });
        expect((await enable(ned, { enabled: true })).status).toBe(403);
        await expectError(await enable(olga, { enabled: false }), 400, CONNECTION_MESSAGES.enableOnly);
        const enabled = await enable(olga, { enabled: true });
        expect(enabled.status).toBe(200);
        expect(((await enabled.json()) as { webhook: WebhookView }).webhook.disabled).toBeNull();
        expect(await changedScan()).toEqual([malHook.id, olgaHook.id].sort());

        // An admin who deletes their account leaves the team as surely as one removed.
        const pia = await api.signIn('pia', { email: `pia-${tag}@acme.com`, name: 'Pia' });
        await api.db
          .insert(workspaceMembers)
          .values({ workspaceId: team.id, userId: pia.uid, role: 'admin' });
        const piaHook = await addHook(pia, 'pia');
        expect((await call('/api/auth/account', { method: 'DELETE', token: pia.idToken })).status).toBe(204);
        expect((await listed()).find((h) => h.id === piaHook.id)?.disabled?.reason).toBe(
          CONNECTION_MESSAGES.answererGone(`Pia (pia-${tag}@acme.com)`),
        );
        expect(mailsTo(`olga-${tag}@acme.com`).at(-1)).toContain(`${receiverUrl}/pia`);
        expect(await changedScan()).toEqual([malHook.id, olgaHook.id].sort());
      });
    },
  );
}
