import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanAlert } from '../../../../src/core/alerts/scan-alert.ts';
import { sendScanAlert } from '../../../../src/core/alerts/send-scan-alert.ts';
import { UNSUBSCRIBE_SECRET } from '../../../../src/core/alerts/unsubscribe-link.ts';
import type { EngineSettings } from '../../../../src/core/engine-settings.ts';
import { createMailer } from '../../../../src/core/mail/mailer.ts';
import { appSecret } from '../../../../src/core/mail/secrets.ts';
import { runScan } from '../../../../src/core/scans/run.ts';
import type { Database } from '../../../../src/db/client.ts';
import { domains, scans, users, workspaceMembers, workspaces } from '../../../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { testApp } from '../../../helpers/app.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const logger = pino({ level: 'silent' });
const DOMAIN = 'alerts-acme.com';
const DANGLING = `old.${DOMAIN}`;
const PUBLIC_URL = 'https://danglewatch.example.net';

/** A header as sent (mailparser folds the List-* headers into an object of its own). */
function header(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((h) => h.key === name)?.line ?? '';
  return line.slice(line.indexOf(':') + 1).trim();
}

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `change alerts by e-mail on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      let dns: DnsFixture;
      let smtp: SMTPServer;
      let smtpPort: number;
      const inbox: ParsedMail[] = [];
      let settings: EngineSettings;
      let domainId: string;

      beforeAll(async () => {
        database = await backend.open();
        dns = await startDnsServer();
        dns.add(DOMAIN, { type: 'A', data: '127.0.0.1' });
        dns.add(DANGLING, { type: 'CNAME', data: 'gone-4821.azurewebsites.net' });
        smtp = new SMTPServer({
          authOptional: true,
          disabledCommands: ['STARTTLS'],
          onData(stream, _session, done) {
            simpleParser(stream).then((mail) => {
              inbox.push(mail);
              done();
            }, done);
          },
        });
        await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
        smtpPort = (smtp.server.address() as AddressInfo).port;
        settings = {
          resolvers: [`127.0.0.1:${dns.port}`],
          allowPrivate: ['127.0.0.1'],
          wordlist: ['old', 'www'],
          timeoutMs: 1500,
          validationDelayMs: 20,
          cloudRanges: [],
          // No registration lookups: the one dangling name's registrable domain is not what these test.
          rdapUrl: '',
        };
        await database.db
          .insert(users)
          .values({ id: 'u-alert', email: `owner@${DOMAIN}`, provider: 'google' });
        const [row] = await database.db
          .insert(domains)
          .values({
            workspaceId: 'u-alert',
            domain: DOMAIN,
            verificationToken: 'i'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        domainId = row?.id ?? '';
      });
      afterAll(async () => {
        await new Promise<void>((resolve) => smtp?.close(() => resolve()));
        await dns?.close();
        await database?.close();
      });

      const deps = () => ({
        mailer: createMailer({
          smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
          from: 'DangleWatch <alerts@example.net>',
          outboxDir: '/nonexistent',
          logger,
        }),
        publicUrl: PUBLIC_URL,
      });
      const scanOnce = async () => {
        const [row] = await database.db
          .insert(scans)
          .values({
            workspaceId: 'u-alert',
            domainId,
            domain: DOMAIN,
            config: {
              skipDiscovery: false,
              useCertificateTransparency: false,
              useMultiStageValidation: false,
            },
          })
          .returning();
        if (!row) throw new Error('no scan');
        expect(await runScan(database.db, row.id, settings, logger)).toBe('completed');
        return row.id;
      };

      it('sends one alert for a new finding, with its fix, a link to the scan and one-click unsubscribe', async () => {
        const scanId = await scanOnce();
        expect(await sendScanAlert(database.db, scanId, deps(), logger)).toBe('sent');
        expect(inbox).toHaveLength(1);
        const mail = inbox[0] as ParsedMail;
        expect(mail.subject).toBe(`DangleWatch: 1 new dangling record on ${DOMAIN}`);
        expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe(`owner@${DOMAIN}`);
        expect(mail.text).toContain(`New: ${DANGLING} CNAME gone-4821.azurewebsites.net`);
        expect(mail.text).toContain('How to fix it:');
        expect(mail.text).toContain(`${PUBLIC_URL}/dashboard?section=scans&scan=${scanId}&workspace=u-alert`);
        expect(mail.html).toContain(DANGLING);
        expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
        expect(header(mail, 'list-unsubscribe')).toMatch(
          /^<https:\/\/danglewatch\.example\.net\/alerts\/unsubscribe\?d=/,
        );
        // The job retried after it sent: no second e-mail.
        expect(await sendScanAlert(database.db, scanId, deps(), logger)).toBe('already-sent');
        expect(inbox).toHaveLength(1);
      });

      it('sends nothing the next time when nothing changed', async () => {
        const scanId = await scanOnce();
        expect(await sendScanAlert(database.db, scanId, deps(), logger)).toBe('no-change');
        expect(inbox).toHaveLength(1);
      });

      it("says 'resolved' once the record is fixed", async () => {
        dns.zone.delete(DANGLING);
        const scanId = await scanOnce();
        expect(await sendScanAlert(database.db, scanId, deps(), logger)).toBe('sent');
        expect(inbox).toHaveLength(2);
        expect(inbox[1]?.subject).toBe(`DangleWatch: 1 resolved finding on ${DOMAIN}`);
        expect(inbox[1]?.text).toContain(
          `Resolved: ${DANGLING} CNAME gone-4821.azurewebsites.net no longer dangles.`,
        );
      });

      it("leaves out what the domain's 'Alert on' setting does not cover", async () => {
        const review = {
          subdomain: `x.${DOMAIN}`,
          recordType: 'CNAME' as const,
          target: 'x.example.net',
          service: 'Other',
          status: 'review' as const,
        };
        const insertWith = async (changes: NonNullable<typeof scans.$inferInsert.changes>) => {
          const [row] = await database.db
            .insert(scans)
            .values({ workspaceId: 'u-alert', domainId, domain: DOMAIN, status: 'completed', changes })
            .returning();
          return row?.id ?? '';
        };
        await database.db.update(domains).set({ alertMinStatus: 'likely' }).where(eq(domains.id, domainId));
        try {
          const quiet = await insertWith({ new: [review], changed: [], resolved: [], stillOpen: 0 });
          expect(await sendScanAlert(database.db, quiet, deps(), logger)).toBe('no-change');
          const loud = await insertWith({
            new: [review, { ...review, subdomain: `y.${DOMAIN}`, status: 'likely' }],
            changed: [],
            resolved: [],
            stillOpen: 0,
          });
          expect(await sendScanAlert(database.db, loud, deps(), logger)).toBe('sent');
          expect(inbox.at(-1)?.subject).toBe(`DangleWatch: 1 new dangling record on ${DOMAIN}`);
          expect(inbox.at(-1)?.text).toContain(`y.${DOMAIN}`);
          expect(inbox.at(-1)?.text).not.toContain(`x.${DOMAIN}`);
        } finally {
          await database.db.update(domains).set({ alertMinStatus: 'review' }).where(eq(domains.id, domainId));
          inbox.pop();
        }
      });

      it('unsubscribes without sign-in through the signed link, which cannot be forged', async () => {
        const app = testApp(database);
        const link = new URL(header(inbox[0] as ParsedMail, 'list-unsubscribe').replace(/^<|>$/g, ''));
        const path = `${link.pathname}${link.search}`;
        const forged = new URL(link);
        const signature = forged.searchParams.get('s') ?? '';
        forged.searchParams.set('s', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
        expect((await app.request(`${forged.pathname}${forged.search}`, { method: 'POST' })).status).toBe(
          404,
        );
        const otherDomain = new URL(link);
        otherDomain.searchParams.set('d', '00000000-0000-4000-8000-000000000000');
        expect(
          (await app.request(`${otherDomain.pathname}${otherDomain.search}`, { method: 'POST' })).status,
        ).toBe(404);
        // Malformed links answer the 'not valid' page, never a server error.
        for (const query of [
          '',
          '?d=not-a-uuid&s=x',
          `?d=${domainId}`,
          `?d=${domainId}&s=${'x'.repeat(500)}`,
        ]) {
          const res = await app.request(`/alerts/unsubscribe${query}`, { method: 'POST' });
          expect(res.status, query).toBe(404);
          expect(await res.text()).toContain('This link is not valid');
        }
        const otherMember = new URL(link);
        otherMember.searchParams.set('u', 'u-someone-else');
        expect(
          (await app.request(`${otherMember.pathname}${otherMember.search}`, { method: 'POST' })).status,
        ).toBe(404);
        // A link mailed before alerts named their member signs the domain alone, and still works.
        const older = new URL(link);
        older.searchParams.delete('u');
        older.searchParams.set(
          's',
          createHmac('sha256', await appSecret(database.db, UNSUBSCRIBE_SECRET))
            .update(`unsubscribe:${domainId}`)
            .digest('base64url'),
        );
        expect((await app.request(`${older.pathname}${older.search}`)).status).toBe(200);
        expect(link.searchParams.get('u')).toBe('u-alert');

        const confirm = await app.request(path);
        expect(confirm.status).toBe(200);
        expect(await confirm.text()).toContain(`Stop alerts for ${DOMAIN}?`);
        const [still] = await database.db.select().from(domains).where(eq(domains.id, domainId));
        expect(still?.alertsEmail).toBe(true);

        const done = await app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        });
        expect(done.status).toBe(200);
        expect(await done.text()).toContain(`You will no longer receive e-mail alerts for ${DOMAIN}.`);

        dns.add(DANGLING, { type: 'CNAME', data: 'gone-4821.azurewebsites.net' });
        const scanId = await scanOnce();
        expect(await sendScanAlert(database.db, scanId, deps(), logger)).toBe('unsubscribed');
        expect(inbox).toHaveLength(2);
      });

      it("a team workspace's alert goes to every member, once, each with a link that unsubscribes them alone", async () => {
        await database.db
          .insert(users)
          .values({ id: 'u-colleague', email: 'colleague@example.org', provider: 'github' });
        await database.db.insert(workspaces).values({ id: 'team-alerts', name: 'Team', tier: 'intro' });
        await database.db.insert(workspaceMembers).values([
          {
            workspaceId: 'team-alerts',
            userId: 'u-alert',
            role: 'owner',
            joinedAt: new Date('2026-11-01T00:00:00Z'),
          },
          {
            workspaceId: 'team-alerts',
            userId: 'u-colleague',
            role: 'viewer',
            joinedAt: new Date('2026-11-02T00:00:00Z'),
          },
        ]);
        const [team] = await database.db
          .insert(domains)
          .values({
            workspaceId: 'team-alerts',
            domain: DOMAIN,
            verificationToken: 'j'.repeat(24),
            scanConfig: DEFAULT_SCAN_CONFIG,
            status: 'verified',
          })
          .returning();
        const [row] = await database.db
          .insert(scans)
          .values({
            workspaceId: 'team-alerts',
            domainId: team?.id,
            domain: DOMAIN,
            config: {
              skipDiscovery: false,
              useCertificateTransparency: false,
              useMultiStageValidation: false,
            },
          })
          .returning();
        expect(await runScan(database.db, row?.id ?? '', settings, logger)).toBe('completed');
        expect(await sendScanAlert(database.db, row?.id ?? '', deps(), logger)).toBe('sent');
        expect(inbox).toHaveLength(4);
        const [toOwner, toColleague] = inbox.slice(2) as ParsedMail[];
        const to = (mail: ParsedMail | undefined) => (mail?.to && 'text' in mail.to ? mail.to.text : '');
        expect([to(toOwner), to(toColleague)]).toEqual([`owner@${DOMAIN}`, 'colleague@example.org']);
        // The link opens the team's workspace, whichever one a member had open last.
        expect(toColleague?.text).toContain(
          `${PUBLIC_URL}/dashboard?section=scans&scan=${row?.id}&workspace=team-alerts`,
        );
        expect(toColleague?.text).toContain("Stop the Team workspace's alerts to you:");
        expect(await sendScanAlert(database.db, row?.id ?? '', deps(), logger)).toBe('already-sent');
        expect(inbox).toHaveLength(4);

        // The colleague's one-click unsubscribe (their mail client's button) stops their alerts
        // only: the owner's, and the domain's, go on.
        const app = testApp(database);
        const link = new URL(header(toColleague as ParsedMail, 'list-unsubscribe').replace(/^<|>$/g, ''));
        const confirm = await app.request(`${link.pathname}${link.search}`);
        expect(await confirm.text()).toContain('Stop the Team workspace&#39;s alerts to you?');
        const done = await app.request(`${link.pathname}${link.search}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        });
        expect(done.status).toBe(200);
        expect(await done.text()).toContain('Its other members still do.');
        const [domain] = await database.db
          .select()
          .from(domains)
          .where(eq(domains.id, team?.id ?? ''));
        expect(domain?.alertsEmail).toBe(true);
        const members = await database.db
          .select({ userId: workspaceMembers.userId, alertsEmail: workspaceMembers.alertsEmail })
          .from(workspaceMembers)
          .where(eq(workspaceMembers.workspaceId, 'team-alerts'))
          .orderBy(workspaceMembers.userId);
        expect(members).toEqual([
          { userId: 'u-alert', alertsEmail: true },
          { userId: 'u-colleague', alertsEmail: false },
        ]);
        expect((await scanAlert(database.db, row?.id ?? ''))?.recipients).toEqual([
          { userId: 'u-alert', email: `owner@${DOMAIN}` },
        ]);
        // Someone who has left the workspace cannot use their old link on the others' alerts.
        await database.db.delete(workspaceMembers).where(eq(workspaceMembers.userId, 'u-colleague'));
        expect((await app.request(`${link.pathname}${link.search}`, { method: 'POST' })).status).toBe(404);
      });
    },
  );
}
