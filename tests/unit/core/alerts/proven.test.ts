import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertMessage } from '../../../../src/core/alerts/alert-message.ts';
import { provenAlert, reproveWith } from '../../../../src/core/alerts/proven.ts';
import type { EngineSettings } from '../../../../src/core/engine-settings.ts';
import type { Database } from '../../../../src/db/client.ts';
import { findings, users } from '../../../../src/db/schema.ts';
import type { FindingRef, FindingView, Proof } from '../../../../src/model/contract.ts';
import { type DnsFixture, startDnsServer } from '../../../fixtures/dns-server.ts';
import { type ProofFixture, startProofServer } from '../../../fixtures/proof-server.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const DOMAIN = 'proven-acme.com';
const DAY = 86_400_000;

const proofOf = (name: string, msAgo: number): Proof => ({
  check: 'azure-app-service',
  answer: { name, free: true, said: 'nameAvailable: true' },
  checkedAt: new Date(Date.now() - msAgo).toISOString(),
});
const finding = (name: string, proof: Proof | null): FindingView => ({
  subdomain: `${name}.${DOMAIN}`,
  recordType: 'CNAME',
  target: `${name}.azurewebsites.net`,
  service: 'Azure App Service',
  status: 'claimable',
  risk: 'high',
  evidence: [`${name}.${DOMAIN} CNAME ${name}.azurewebsites.net`],
  explanation: 'x',
  proofOfConcept: 'x',
  remediation: 'x',
  proof,
});
const ref = (f: FindingView): FindingRef => ({
  subdomain: f.subdomain,
  recordType: f.recordType,
  target: f.target,
  service: f.service,
  status: f.status,
});

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `an alert calls claimable only what a day-fresh proof says, on ${backend.name}`,
    () => {
      let database: Database;
      let dns: DnsFixture;
      let providers: ProofFixture;
      let engine: EngineSettings;
      const stale = finding('acme-stale-4821', proofOf('acme-stale-4821', 2 * DAY));
      const fresh = finding('acme-fresh-4821', proofOf('acme-fresh-4821', 3_600_000));
      const scan = { workspaceId: 'u-proven', domain: DOMAIN, findings: [stale, fresh] };

      beforeAll(async () => {
        database = await backend.open();
        dns = await startDnsServer();
        providers = await startProofServer();
        engine = {
          resolvers: [`127.0.0.1:${dns.port}`],
          allowPrivate: ['127.0.0.1'],
          proof: providers.settings(),
        };
        await database.db
          .insert(users)
          .values({ id: 'u-proven', email: `owner@${DOMAIN}`, provider: 'google' });
        const at = new Date();
        for (const [i, f] of [stale, fresh].entries())
          await database.db.insert(findings).values({
            workspaceId: 'u-proven',
            domain: DOMAIN,
            key: `k${i}`,
            subdomain: f.subdomain,
            latest: f,
            firstSeenAt: at,
            lastSeenAt: at,
          });
      });
      afterAll(async () => {
        await providers?.close();
        await dns?.close();
        await database?.close();
      });

      it('asks again about a proof older than a day; taken now, the alert says review and the finding shows it', async () => {
        providers.names.set('acme-stale-4821', 'taken');
        const alert = await provenAlert(
          database.db,
          scan,
          { new: [ref(stale), ref(fresh)], worse: [], resolved: [] },
          reproveWith(engine),
        );
        expect(alert.new.map((f) => [f.subdomain, f.status])).toEqual([
          [stale.subdomain, 'review'],
          [fresh.subdomain, 'claimable'],
        ]);
        const asked = providers.requests.filter((r) => r.path.includes('checknameavailability'));
        expect(asked.map((r) => r.body.name)).toEqual(['acme-stale-4821']);
        const [row] = await database.db
          .select({ proof: findings.proof, latest: findings.latest })
          .from(findings)
          .where(eq(findings.subdomain, stale.subdomain));
        expect(row?.latest.status).toBe('review');
        expect(row?.proof).toMatchObject({ check: 'azure-app-service', answer: { free: false } });
        expect(Date.parse(row?.proof?.checkedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
      });

      it('keeps claimable when the provider still says free, with the new proof in the alert', async () => {
        // Another name: the answer about the first is taken again for ten minutes without asking.
        const again = finding('acme-again-4821', proofOf('acme-again-4821', 3 * DAY));
        const alert = await provenAlert(
          database.db,
          { ...scan, findings: [again] },
          { new: [ref(again)], worse: [], resolved: [] },
          reproveWith(engine),
        );
        expect(alert.new[0]).toMatchObject({ status: 'claimable', proof: { answer: { free: true } } });
        const mail = alertMessage({
          to: `owner@${DOMAIN}`,
          domain: DOMAIN,
          scanId: 's',
          workspaceId: 'u-proven',
          alert,
          findings: [again],
          openNow: 1,
          publicUrl: 'https://danglewatch.example.net',
          unsubscribeUrl: 'https://danglewatch.example.net/u',
        });
        expect(mail.text).toContain('  Proof: Azure says the name acme-again-4821 is free to register (');
        expect(mail.html).toContain(
          '<strong>Proof:</strong> Azure says the name acme-again-4821 is free to register',
        );
        expect(Date.now() - Date.parse(alert.new[0]?.proof?.checkedAt ?? '')).toBeLessThan(60_000);
      });

      it('a worse finding that the new answer leaves no worse is no change; without a way to ask, stale is likely', async () => {
        const worse = { ...ref(stale), from: { status: 'likely' as const, target: stale.target } };
        const changed = await provenAlert(
          database.db,
          scan,
          { new: [], worse: [worse], resolved: [] },
          reproveWith({
            ...engine,
            proof: providers.settings({ azureManagementUrl: `${providers.url}/arm` }),
          }),
        );
        expect(changed.worse).toEqual([]);
        const blind = await provenAlert(
          database.db,
          scan,
          { new: [ref(stale)], worse: [], resolved: [] },
          undefined,
        );
        expect(blind.new[0]).toMatchObject({ status: 'likely', proof: null });
      });
    },
  );
}
