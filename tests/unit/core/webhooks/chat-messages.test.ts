import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { discordMessage, teamsMessage } from '../../../../src/core/webhooks/chat-messages.ts';
import { deliverWebhook } from '../../../../src/core/webhooks/deliver.ts';
import { changesPayload } from '../../../../src/core/webhooks/scan-changes.ts';
import type { Database } from '../../../../src/db/client.ts';
import { webhookDeliveries } from '../../../../src/db/schema.ts';
import type { FindingRef } from '../../../../src/model/contract.ts';
import { demoFirebaseConfig } from '../../../../src/model/firebase-config.ts';
import { firebaseTokenVerifier, type TokenVerifier } from '../../../../src/server/auth/verifier.ts';
import { apiCaller } from '../../../helpers/api.ts';
import { testApp } from '../../../helpers/app.ts';
import { databaseBackends } from '../../../helpers/databases.ts';
import {
  type MintedUser,
  mintIdToken,
  TEST_PROJECT_ID,
  waitForAuthEmulator,
} from '../../../helpers/emulator.ts';

const emulatorHost = inject('authEmulatorHost');
process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
const logger = pino({ level: 'silent' });

const ref = (subdomain: string, status: FindingRef['status'], service = 'Heroku'): FindingRef => ({
  subdomain,
  recordType: 'CNAME',
  target: `${subdomain.split('.')[0]}.herokuapp.com`,
  service,
  status,
});
const SCAN_URL = 'https://dw.example/dashboard?section=scans&scan=s-1';

interface Teams {
  type: string;
  attachments: {
    contentType: string;
    contentUrl: null;
    content: {
      type: string;
      version: string;
      body: { type: string; text: string }[];
      actions?: { type: string; title: string; url: string }[];
    };
  }[];
}
interface Discord {
  content: string;
  embeds: {
    title: string;
    url?: string;
    description: string;
    color: number;
    fields: { name: string; value: string }[];
  }[];
  allowed_mentions: { parse: string[] };
}

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `Teams and Discord webhooks on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let verifier: TokenVerifier;
      let receiver: http.Server;
      let receiverUrl: string;
      let answer = 200;
      const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
      const queued: string[] = [];
      let app: ReturnType<typeof testApp>;
      const call = apiCaller({ request: (path, init) => app.request(path, init) });
      let ann: MintedUser;
      const tag = `${backend.name}-chat-${Date.now()}`.toLowerCase();

      beforeAll(async () => {
        await waitForAuthEmulator(emulatorHost);
        database = await backend.open();
        verifier = firebaseTokenVerifier(TEST_PROJECT_ID);
        // A loopback receiver: it answers as Teams (202) or Discord (204) do when they take a message.
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
        app = testApp(database, {
          auth: { verifier, publicConfig: { firebase: demoFirebaseConfig() } },
          webhooks: { enqueue: async (id: string) => void queued.push(id), allowPrivate: ['127.0.0.1'] },
        });
        ann = await mintIdToken(emulatorHost, { sub: `ann-${tag}`, email: `ann@chat-${tag}.com` });
      });
      afterAll(async () => {
        await new Promise((resolve) => receiver?.close(resolve));
        await verifier?.close();
        await database?.close();
      });

      const hooks = new Map<string, string>();
      /** The webhook of `format`, saved through the API the first time (the plan caps webhooks). */
      async function addHook(format: string) {
        const known = hooks.get(format);
        if (known) return known;
        const res = await call('/api/webhooks', {
          method: 'POST',
          token: ann.idToken,
          body: { url: receiverUrl, format },
        });
        expect(res.status).toBe(201);
        const { webhook } = (await res.json()) as { webhook: { id: string; format: string } };
        expect(webhook.format).toBe(format);
        hooks.set(format, webhook.id);
        return webhook.id;
      }

      /** Delivers a scan.changes payload to a webhook, as the worker would, and returns the body received. */
      async function deliverChanges(webhookId: string, alert: Parameters<typeof changesPayload>[0]['alert']) {
        const payload = changesPayload({
          workspaceId: 'w-1',
          domain: 'acme.dev',
          scanId: 's-1',
          scanUrl: SCAN_URL,
          alert,
        });
        const [delivery] = await database.db
          .insert(webhookDeliveries)
          .values({ webhookId, kind: 'changes', payload })
          .returning({ id: webhookDeliveries.id });
        expect(
          await deliverWebhook(database.db, delivery?.id as string, { allowPrivate: ['127.0.0.1'], logger }),
        ).toBe('delivered');
        return JSON.parse((received.at(-1) as { body: string }).body);
      }

      it('refuses a format it does not know', async () => {
        const res = await call('/api/webhooks', {
          method: 'POST',
          token: ann.idToken,
          body: { url: receiverUrl, format: 'email' },
        });
        expect(res.status).toBe(400);
      });

      it("Teams: 'Send test' posts a message with an Adaptive Card, signed like every delivery", async () => {
        answer = 202;
        const id = await addHook('teams');
        await call(`/api/webhooks/${id}/test`, { method: 'POST', token: ann.idToken });
        expect(
          await deliverWebhook(database.db, queued.at(-1) as string, { allowPrivate: ['127.0.0.1'], logger }),
        ).toBe('delivered');
        const got = received.at(-1) as { headers: http.IncomingHttpHeaders; body: string };
        expect(got.headers['x-danglewatch-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        const message = JSON.parse(got.body) as Teams;
        expect(message.type).toBe('message');
        expect(message.attachments).toHaveLength(1);
        const [attachment] = message.attachments;
        expect(attachment?.contentType).toBe('application/vnd.microsoft.card.adaptive');
        expect(attachment?.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
        expect(attachment?.content.body.map((b) => b.text)).toEqual([
          'DangleWatch',
          'DangleWatch test delivery: this webhook works.',
        ]);
        expect(attachment?.content.actions).toBeUndefined();
      });

      it("Teams: a scan's changes, each list under its heading, and a button to the scan", async () => {
        answer = 202;
        const id = await addHook('teams');
        const message = (await deliverChanges(id, {
          new: [ref('old.acme.dev', 'claimable')],
          worse: [
            { ...ref('app.acme.dev', 'claimable'), from: { status: 'likely', target: 'app.herokuapp.com' } },
          ],
          resolved: [ref('gone.acme.dev', 'review', 'Netlify')],
        })) as Teams;
        const card = message.attachments[0]?.content;
        expect(card?.body.map((b) => b.text)).toEqual([
          'DangleWatch: changes on acme.dev',
          `DangleWatch: 1 new, 1 worse, 1 resolved on acme.dev. ${SCAN_URL}`,
          'New (1)',
          '- old.acme.dev CNAME → old.herokuapp.com (Heroku, claimable)',
          'Worse (1)',
          '- app.acme.dev CNAME → app.herokuapp.com (Heroku, likely → claimable)',
          'Resolved (1)',
          '- gone.acme.dev CNAME → gone.herokuapp.com (Netlify, review)',
        ]);
        expect(card?.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the scan', url: SCAN_URL }]);
      });

      it("Discord: 'Send test' posts content and an embed, and mentions no one", async () => {
        answer = 204;
        const id = await addHook('discord');
        await call(`/api/webhooks/${id}/test`, { method: 'POST', token: ann.idToken });
        expect(
          await deliverWebhook(database.db, queued.at(-1) as string, { allowPrivate: ['127.0.0.1'], logger }),
        ).toBe('delivered');
        const message = JSON.parse((received.at(-1) as { body: string }).body) as Discord;
        expect(message.content).toBe('DangleWatch test delivery: this webhook works.');
        expect(message.embeds).toEqual([
          {
            title: 'DangleWatch',
            description: 'DangleWatch test delivery: this webhook works.',
            color: 0x1e8e3e,
            fields: [],
          },
        ]);
        expect(message.allowed_mentions).toEqual({ parse: [] });
      });

      it("Discord: a scan's changes as fields of one embed linked to the scan, red when claimable", async () => {
        answer = 204;
        const id = await addHook('discord');
        const message = (await deliverChanges(id, {
          new: [ref('old.acme.dev', 'claimable')],
          worse: [],
          resolved: [ref('gone.acme.dev', 'review')],
        })) as Discord;
        expect(message.content).toBe(`DangleWatch: 1 new, 1 resolved on acme.dev. ${SCAN_URL}`);
        expect(message.embeds[0]).toMatchObject({
          title: 'DangleWatch: changes on acme.dev',
          url: SCAN_URL,
          color: 0xd93025,
          fields: [
            { name: 'New (1)', value: 'old.acme.dev CNAME → old.herokuapp.com (Heroku, claimable)' },
            { name: 'Resolved (1)', value: 'gone.acme.dev CNAME → gone.herokuapp.com (Heroku, review)' },
          ],
        });
        const resolvedOnly = (await deliverChanges(id, {
          new: [],
          worse: [],
          resolved: [ref('x.acme.dev', 'likely')],
        })) as Discord;
        expect(resolvedOnly.embeds[0]?.color).toBe(0x1e8e3e);
      });

      it("a big scan stays within Discord's limits and Teams' message size; the rest is counted", async () => {
        answer = 204;
        const many = Array.from({ length: 400 }, (_, i) =>
          ref(`host-${i}-${'x'.repeat(40)}.acme.dev`, 'claimable'),
        );
        const alert = { new: many, worse: [], resolved: many };
        const discord = (await deliverChanges(await addHook('discord'), alert)) as Discord;
        const embed = discord.embeds[0];
        expect(discord.content.length).toBeLessThanOrEqual(2000);
        for (const field of embed?.fields ?? []) {
          expect(field.value.length).toBeLessThanOrEqual(1024);
          expect(field.value.split('\n').at(-1)).toMatch(/^… and 3\d\d more$/);
        }
        const total =
          (embed?.title.length ?? 0) +
          (embed?.description.length ?? 0) +
          (embed?.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
        expect(total).toBeLessThanOrEqual(6000);
        answer = 202;
        const teams = (await deliverChanges(await addHook('teams'), alert)) as Teams;
        expect(JSON.stringify(teams).length).toBeLessThan(28 * 1024);
        expect(teams.attachments[0]?.content.body.map((b) => b.text)).toContain('New (400)');
        expect(teams.attachments[0]?.content.body[3]?.text.split('\n').at(-1)).toBe('… and 380 more');
      });
    },
  );
}

describe('a stored payload of another shape', () => {
  it('still makes a message: fields that do not fit are left out, never a failed delivery', () => {
    const odd = {
      text: 42,
      domain: ['x'],
      scanUrl: 'javascript:alert(1)',
      new: 'nothing',
      worse: [{ subdomain: 1 }],
    };
    const teams = teamsMessage(odd) as unknown as Teams;
    expect(teams.attachments[0]?.content.body.map((b) => b.text)).toEqual(['DangleWatch', 'DangleWatch']);
    expect(teams.attachments[0]?.content.actions).toBeUndefined();
    const discord = discordMessage(odd) as unknown as Discord;
    expect(discord).toMatchObject({ content: 'DangleWatch', embeds: [{ title: 'DangleWatch', fields: [] }] });
    expect(discord.embeds[0]?.url).toBeUndefined();
  });
});
