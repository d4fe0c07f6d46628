import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INTEGRATION_DELIVERY_RETENTION_DAYS,
  purgeIntegrationDeliveries,
} from '../../../../src/core/retention/integration-deliveries.ts';
import type { Database } from '../../../../src/db/client.ts';
import { integrationDeliveries, integrations, users } from '../../../../src/db/schema.ts';
import { databaseBackends } from '../../../helpers/databases.ts';

const DAY = 86_400_000;

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(
    `the integration delivery purge on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      let database: Database;
      beforeAll(async () => {
        database = await backend.open();
      });
      afterAll(() => database?.close());

      it('forgets deliveries past their retention, but never one still pending', async () => {
        const now = new Date('2026-11-27T12:00:00Z');
        await database.db.insert(users).values({ id: 'u-purge', provider: 'google' });
        const [integration] = await database.db
          .insert(integrations)
          .values({
            workspaceId: 'u-purge',
            kind: 'pagerduty',
            label: 'p',
            minStatus: 'likely',
            settings: {},
            credentialSealed: 's',
            credentialHint: 'h',
          })
          .returning();
        const old = new Date(now.getTime() - (INTEGRATION_DELIVERY_RETENTION_DAYS + 1) * DAY);
        const recent = new Date(now.getTime() - (INTEGRATION_DELIVERY_RETENTION_DAYS - 1) * DAY);
        await database.db.insert(integrationDeliveries).values([
          { integrationId: integration?.id ?? '', action: 'open', status: 'delivered', createdAt: old },
          { integrationId: integration?.id ?? '', action: 'open', status: 'pending', createdAt: old },
          { integrationId: integration?.id ?? '', action: 'closed', status: 'failed', createdAt: recent },
        ]);
        expect(await purgeIntegrationDeliveries(database.db, now)).toBe(1);
        const left = await database.db.select().from(integrationDeliveries);
        expect(left.map((d) => d.status).sort()).toEqual(['failed', 'pending']);
      });
    },
  );
}
