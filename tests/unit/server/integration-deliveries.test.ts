import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INTEGRATION_URLS } from '../../../src/core/integrations/targets.ts';
import { findings, integrationDeliveries, integrations, integrationTickets } from '../../../src/db/schema.ts';
import { deliveryWords, type IntegrationDeliveryView } from '../../../src/model/integrations.ts';
import { findingView } from '../../fixtures/finding.ts';
import { expectError } from '../../helpers/api.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const KEY = `dw:${'a10ac82b'.repeat(5)}`;

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `an integration's delivery log on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const api = apiSuite(backend, {
        integrations: {
          secrets: { key: randomBytes(32) },
          enqueue: async () => {},
          urls: DEFAULT_INTEGRATION_URLS,
        },
      });
      const { call } = api;
      let ann: MintedUser;
      let bob: MintedUser;
      let integrationId: string;

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: 'ann@acme.com' });
        bob = await api.signIn('bob', { email: 'bob@bob.com' });
        const at = new Date('2026-11-20T08:00:00Z');
        const [integration] = await api.db
          .insert(integrations)
          .values({
            workspaceId: ann.uid,
            kind: 'pagerduty',
            label: 'PagerDuty',
            minStatus: 'likely',
            settings: {},
            credentialSealed: 'sealed',
            credentialHint: 'abcd',
            createdBy: ann.uid,
          })
          .returning();
        integrationId = integration?.id ?? '';
        const [finding] = await api.db
          .insert(findings)
          .values({
            workspaceId: ann.uid,
            domain: 'acme.com',
            key: 'k1',
            subdomain: 'old.acme.com',
            latest: findingView('old.acme.com'),
            firstSeenAt: at,
            lastSeenAt: at,
          })
          .returning();
        await api.db
          .insert(integrationTickets)
          .values({ integrationId, findingKey: KEY, findingId: finding?.id, wanted: 'open' });
        await api.db.insert(integrationDeliveries).values([
          { integrationId, findingKey: KEY, action: 'open', status: 'delivered', attempts: 1 },
          {
            integrationId,
            findingKey: `dw:${'f'.repeat(40)}`,
            action: 'closed',
            status: 'failed',
            attempts: 3,
            error: 'PagerDuty did not answer',
            createdAt: new Date(Date.now() - 60_000),
          },
        ]);
      });

      it("names each delivery's record, never its key", async () => {
        const res = await call(`/api/integrations/${integrationId}/deliveries`, { token: ann.idToken });
        expect(res.status).toBe(200);
        const { deliveries } = (await res.json()) as { deliveries: IntegrationDeliveryView[] };
        expect(deliveries.map((d) => [d.subject, deliveryWords(d)])).toEqual([
          ['old.acme.com', 'Opened for old.acme.com · delivered'],
          [null, 'Closed for a finding no longer listed · failed after 3 attempts: PagerDuty did not answer'],
        ]);
        expect(deliveries.map(deliveryWords).join(' ')).not.toContain('dw:');
      });

      it('answers 401 without a token and 404 to another workspace', async () => {
        await expectError(
          await call(`/api/integrations/${integrationId}/deliveries`),
          401,
          'Authentication required',
        );
        const res = await call(`/api/integrations/${integrationId}/deliveries`, { token: bob.idToken });
        expect(res.status).toBe(404);
      });
    },
  );
}
