import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWeeklySummaries } from '../../../../src/core/alerts/weekly-summary.ts';
import { findingRecord } from '../../../../src/core/domains/views.ts';
import { acceptancesExpiringSoon } from '../../../../src/core/findings/expiring-soon.ts';
import { recordFindingHistory } from '../../../../src/core/findings/lifecycle.ts';
import { createMailer } from '../../../../src/core/mail/mailer.ts';
import {
  expireAcceptances,
  sendLapsedAcceptanceAlerts,
} from '../../../../src/core/triage/acceptance-expiry.ts';
import type { Database } from '../../../../src/db/client.ts';
import { findings, users, webhookDeliveries, webhooks } from '../../../../src/db/schema.ts';
import { findingView } from '../../../fixtures/finding.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const logger = pino({ level: 'silent' });
const now = new Date('2026-11-22T12:00:00.000Z');
const minutes = (n: number) => new Date(now.getTime() + n * 60_000);

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `accepted risks that expire on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      const outbox = mkdtempSync(join(tmpdir(), 'dw-expiry-'));
      const queued: string[] = [];
      const deps = () => ({
        mailer: createMailer({ from: 'DangleWatch <a@example.net>', outboxDir: outbox, logger }),
        publicUrl: 'https://danglewatch.example.net',
        enqueueWebhook: async (id: string) => void queued.push(id),
      });
      const ids: Record<string, string> = {};

      beforeAll(async () => {
        database = await backend.open();
        await database.db.insert(users).values({ id: 'u-exp', email: 'owner@acme.com', provider: 'google' });
        await database.db
          .insert(webhooks)
          .values({ workspaceId: 'u-exp', url: 'https://hooks.example.net/x', format: 'json', secret: 's' });
        const accepted = (subdomain: string, extra: Partial<typeof findings.$inferInsert>) => ({
          workspaceId: 'u-exp',
          domain: 'acme.com',
          key: subdomain,
          subdomain,
          latest: findingView(subdomain),
          firstSeenAt: now,
          lastSeenAt: now,
          acceptedAt: minutes(-60 * 24),
          acceptedNote: 'parked',
          acceptedBy: 'Ann',
          ...extra,
        });
        const rows = await database.db
          .insert(findings)
          .values([
            accepted('past.acme.com', { acceptedUntil: minutes(-1) }),
            // Accepted before expiries were kept: none recorded, so it counts as ended.
            accepted('old.acme.com', { acceptedBy: null }),
            accepted('change.acme.com', { acceptedUntilRecordChanges: true }),
            accepted('soon.acme.com', { acceptedUntil: minutes(3 * 24 * 60) }),
            accepted('later.acme.com', { acceptedUntil: minutes(30 * 24 * 60) }),
          ])
          .returning();
        for (const row of rows) ids[row.subdomain] = row.id;
      });
      afterAll(() => database?.close());

      const acceptedNow = async () =>
        (await database.db.select().from(findings).where(eq(findings.workspaceId, 'u-exp')))
          .filter((r) => r.acceptedAt)
          .map((r) => r.subdomain)
          .sort();

      it('lists the acceptances ending within 7 days in the weekly summary', async () => {
        expect((await acceptancesExpiringSoon(database.db, 'u-exp', now)).map((r) => r.subdomain)).toEqual([
          'soon.acme.com',
        ]);
        expect(await sendWeeklySummaries(database.db, deps(), now, logger)).toBe(1);
        const files = readdirSync(outbox);
        expect(files).toHaveLength(1);
        const mail = await simpleParser(readFileSync(join(outbox, files[0] ?? '')));
        expect(mail.subject).toBe('DangleWatch weekly: 1 accepted risk ends within 7 days');
        expect(mail.text).toContain(
          `soon.acme.com (acme.com): accepted by Ann until ${minutes(3 * 24 * 60).toISOString()}: “parked”`,
        );
        expect(mail.text).not.toContain('later.acme.com');
        // A week with none ending: nothing.
        expect(await sendWeeklySummaries(database.db, deps(), minutes(20 * 24 * 60), logger)).toBe(0);
        for (const f of readdirSync(outbox)) rmSync(join(outbox, f));
      });

      it('ends the acceptances whose date passed and those with none, once', async () => {
        // Another domain's scan ends only its own domain's.
        expect(await expireAcceptances(database.db, now, { workspaceId: 'u-exp', domain: 'other.com' })).toBe(
          0,
        );
        expect(await expireAcceptances(database.db, now)).toBe(2);
        expect(await acceptedNow()).toEqual(['change.acme.com', 'later.acme.com', 'soon.acme.com']);
        expect(await expireAcceptances(database.db, now)).toBe(0);
        // The finding says so until it is accepted again.
        const [past] = await database.db
          .select()
          .from(findings)
          .where(eq(findings.id, ids['past.acme.com'] ?? ''));
        expect(past && findingRecord(past)).toMatchObject({
          accepted: null,
          acceptanceEnded: { by: 'Ann', until: minutes(-1).toISOString(), at: now.toISOString() },
        });
        expect(await expireAcceptances(database.db, minutes(3 * 24 * 60))).toBe(1);
      });

      it('alerts each ended acceptance once, even with two workers at it', async () => {
        const told = await Promise.all([
          sendLapsedAcceptanceAlerts(database.db, deps(), logger),
          sendLapsedAcceptanceAlerts(database.db, deps(), logger),
        ]);
        expect(told[0] + told[1]).toBe(3);
        // Each webhook of the workspace gets one delivery of each, in the same words.
        const sent = await database.db.select().from(webhookDeliveries);
        expect(sent.map((d) => d.id).sort()).toEqual([...queued].sort());
        expect(sent).toHaveLength(3);
        expect(sent.every((d) => d.kind === 'acceptance-expired')).toBe(true);
        expect(sent.map((d) => String(d.payload.text))).toContain(
          'DangleWatch: past.acme.com is open again: the acceptance by Ann expired on 2026-11-22. https://danglewatch.example.net/dashboard?section=scans&workspace=u-exp',
        );
        expect(await sendLapsedAcceptanceAlerts(database.db, deps(), logger)).toBe(0);
        const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
        expect(mails).toHaveLength(3);
        expect(mails.some((m) => m.includes('The acceptance by Ann expired on 2026-11-22'))).toBe(true);
        expect(mails.some((m) => m.includes('The acceptance by a former member expired on 2026-11-22'))).toBe(
          true,
        );
        expect(mails.some((m) => m.includes('The acceptance by Ann expired on 2026-11-25'))).toBe(true);
      });

      it('ends an acceptance until the record changes when its target changes', async () => {
        const changed = findingView('change.acme.com', { target: 'other.herokuapp.com' });
        await recordFindingHistory(
          database.db,
          { id: '00000000-0000-4000-8000-0000000000e1', workspaceId: 'u-exp', domain: 'acme.com' },
          [changed],
          ['change.acme.com'],
          minutes(10),
        );
        expect(await acceptedNow()).toEqual(['later.acme.com']);
        expect(await sendLapsedAcceptanceAlerts(database.db, deps(), logger)).toBe(1);
        const mails = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8'));
        expect(mails.some((m) => m.includes('(the record changed)'))).toBe(true);
      });
    },
  );
}
