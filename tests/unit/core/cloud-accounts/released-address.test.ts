// From a connected AWS account to a finding: the account is read while it holds an Elastic IP, then
// after it released it; a record of a monitored domain still pointing there is found as likely,
// "once yours", with the account and the last sighting, stored as an ordinary finding that can be
// accepted with a reason. The loopback block plays AWS's ranges; nothing there is probed.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudAccount } from '../../../../src/core/cloud-accounts/accounts.ts';
import { dueCloudAccounts, runCloudSync } from '../../../../src/core/cloud-accounts/scheduled-sync.ts';
import type { MailMessage } from '../../../../src/core/mail/mailer.ts';
import { runScan } from '../../../../src/core/scans/run.ts';
import { acceptRisk } from '../../../../src/core/triage/findings.ts';
import { cloudAccounts, findings } from '../../../../src/db/schema.ts';
import { buildSarif } from '../../../../src/model/sarif.ts';
import { type AwsFake, isReadAction, startAwsFake } from '../../../fixtures/cloud/aws.ts';
import { openScanRunWorld, RUN_DOMAIN, type ScanRunWorld } from '../../../fixtures/scan-run-world.ts';
import { personalContext } from '../../../helpers/context.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const logger = pino({ level: 'silent' });
const KEY = { accessKeyId: 'AKIARELEASEDADDR0001', secretAccessKey: 'released-address-secret' };
const HOUR = 3_600_000;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `a released cloud address on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let world: ScanRunWorld;
      let fake: AwsFake;
      let accountId: string;
      const connected: string[] = [];
      const userId = `released-${backend.name}-${Date.now()}`.toLowerCase();
      const secrets = { key: randomBytes(32) };
      const settings = () => ({ secrets, syncMinutes: 15, cloudOptions: { env: fake.env, maxRetries: 1 } });
      const held = new Date(Date.now() - 72 * HOUR);
      const after = new Date(Date.now() - HOUR);

      beforeAll(async () => {
        world = await openScanRunWorld(backend, userId);
        fake = await startAwsFake(KEY);
        fake.world.elasticIps.push({ region: 'us-east-1', ip: '127.0.60.1', allocationId: 'eipalloc-api' });
        fake.world.instances.push({ region: 'us-east-1', id: 'i-web', ip: '127.0.60.2' });
        world.dns.add(`old-api.${RUN_DOMAIN}`, { type: 'A', data: '127.0.60.1' });
        world.dns.add(`web.${RUN_DOMAIN}`, { type: 'A', data: '127.0.60.2' });
        world.settings = {
          ...world.settings,
          subdomains: [`old-api.${RUN_DOMAIN}`, `web.${RUN_DOMAIN}`],
          cloudRanges: [{ cidr: '127.0.60.0/24', provider: 'AWS', cloud: 'aws' }],
          onConnect: (address) => void connected.push(address),
        };
        const ctx = personalContext(userId, { tier: 'solo', email: `w@${RUN_DOMAIN}` });
        const account = await createCloudAccount(
          world.database.db,
          secrets,
          ctx,
          { provider: 'aws', label: 'Production', credentials: KEY },
          { env: fake.env },
        );
        accountId = account.id;
      });
      afterAll(async () => {
        await fake?.close();
        await world?.close();
      });

      it('is read on schedule: due until read, then every interval', async () => {
        expect(await dueCloudAccounts(world.database.db, held, 15)).toContain(accountId);
        await runCloudSync(world.database.db, accountId, settings(), logger, held);
        expect(
          await dueCloudAccounts(world.database.db, new Date(held.getTime() + 5 * 60_000), 15),
        ).not.toContain(accountId);
        expect(
          await dueCloudAccounts(world.database.db, new Date(held.getTime() + 16 * 60_000), 15),
        ).toContain(accountId);
      });

      it('finds the record that still points at the released address, as likely, once yours', async () => {
        fake.world.elasticIps.length = 0;
        expect(await runCloudSync(world.database.db, accountId, settings(), logger, after)).toMatchObject({
          addresses: 1,
        });
        const scanId = await world.newScan();
        expect(await runScan(world.database.db, scanId, world.settings, logger)).toBe('completed');
        const scan = await world.read(scanId);
        const finding = scan?.findings.find((f) => f.subdomain === `old-api.${RUN_DOMAIN}`);
        expect(finding).toMatchObject({
          recordType: 'A',
          target: '127.0.60.1',
          service: 'AWS',
          status: 'likely',
        });
        expect(finding?.evidence.join('\n')).toContain(
          `127.0.60.1 was held by the AWS account "Production" (123456789012) (elastic-ip eipalloc-api), last seen ${held.toISOString()}`,
        );
        expect(finding?.explanation).toMatch(/^This address was once yours \(last seen /);
        // New in this scan, so alerts and webhooks carry it; and SARIF reports it as a warning.
        expect(scan?.changes?.new).toContainEqual({
          subdomain: `old-api.${RUN_DOMAIN}`,
          recordType: 'A',
          target: '127.0.60.1',
          service: 'AWS',
          status: 'likely',
          key: expect.stringMatching(/^dw:[0-9a-f]{40}$/),
        });
        const sarif = buildSarif({
          findings: scan?.findings ?? [],
          status: 'completed',
          started_at: null,
          completed_at: null,
        }) as { runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[] };
        expect(sarif.runs[0]?.results).toContainEqual(
          expect.objectContaining({ ruleId: 'dangling-a/aws', level: 'warning' }),
        );
        // The instance's address is held now: ours, no finding; and nothing in the cloud was probed.
        expect(scan?.findings.filter((f) => f.subdomain === `web.${RUN_DOMAIN}`)).toEqual([]);
        expect(connected.filter((a) => a.startsWith('127.0.60.'))).toEqual([]);
        expect(fake.requests.filter((r) => !isReadAction(r.action))).toEqual([]);
      });

      it('a read failing for days is said on the account, and mailed to its managers once', async () => {
        const mail: MailMessage[] = [];
        const alerts = {
          mailer: { send: async (m: MailMessage) => void mail.push(m) },
          publicUrl: 'https://dw.test',
        };
        const start = new Date();
        const refuse = () =>
          fake.faults.push({
            service: 'ec2',
            status: 401,
            code: 'AuthFailure',
            message: 'AWS was not able to validate the provided access credentials',
          });
        refuse();
        expect(
          await runCloudSync(world.database.db, accountId, settings(), logger, start, alerts),
        ).toBeUndefined();
        expect(mail).toEqual([]);
        const [failing] = await world.database.db
          .select()
          .from(cloudAccounts)
          .where(eq(cloudAccounts.id, accountId));
        expect(failing).toMatchObject({
          syncError: 'AWS did not accept the credential',
          syncErrorDetail:
            'DescribeRegions: AuthFailure: AWS was not able to validate the provided access credentials',
          syncFailingSince: start,
        });
        for (const days of [3.1, 3.2]) {
          refuse();
          await runCloudSync(
            world.database.db,
            accountId,
            settings(),
            logger,
            new Date(start.getTime() + days * 86_400_000),
            alerts,
          );
        }
        expect(mail).toHaveLength(1);
        expect(mail[0]).toMatchObject({
          to: `w@${RUN_DOMAIN}`,
          subject: 'DangleWatch cannot read your AWS account',
        });
        expect(mail[0]?.text).toContain(
          'AWS did not accept the credential.\nAWS said: DescribeRegions: AuthFailure',
        );
        expect(mail[0]?.text).toContain('https://dw.test/dashboard/settings?tab=cloud');
        // A read that works again clears the failure, and the next spell would be mailed again.
        await runCloudSync(
          world.database.db,
          accountId,
          settings(),
          logger,
          new Date(start.getTime() + 4 * 86_400_000),
          alerts,
        );
        const [fine] = await world.database.db
          .select()
          .from(cloudAccounts)
          .where(eq(cloudAccounts.id, accountId));
        expect(fine).toMatchObject({ syncError: null, syncFailingSince: null, failureMailedAt: null });
      });

      it('is an ordinary finding: accepted with a reason, like any other', async () => {
        const [row] = await world.database.db
          .select()
          .from(findings)
          .where(and(eq(findings.workspaceId, userId), eq(findings.subdomain, `old-api.${RUN_DOMAIN}`)));
        expect(row?.latest).toMatchObject({ status: 'likely', target: '127.0.60.1' });
        const ctx = personalContext(userId, { tier: 'solo', email: `w@${RUN_DOMAIN}` });
        const accepted = await acceptRisk(
          world.database.db,
          ctx,
          row?.id as string,
          { accepted: true, note: 'ours in the staging account', until: 'record-changes' },
          new Date(),
        );
        expect(accepted.accepted).toEqual({
          at: expect.any(String),
          by: `w@${RUN_DOMAIN}`,
          note: 'ours in the staging account',
          until: 'record-changes',
        });
      });
    },
  );
}
