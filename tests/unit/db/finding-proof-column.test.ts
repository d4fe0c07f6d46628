import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.ts';
import { findings, workspaces } from '../../../src/db/schema.ts';
import type { FindingView, Proof } from '../../../src/model/contract.ts';
import { databaseBackends } from '../../helpers/databases.ts';

const proof: Proof = {
  check: 'azure-app-service',
  answer: { name: 'acme-staging-4821', free: true, said: 'nameAvailable: true' },
  checkedAt: '2026-11-27T12:00:00.000Z',
};
const latest = (withProof: Proof | null | undefined): FindingView => ({
  subdomain: 'old.acme.test',
  recordType: 'CNAME',
  target: 'acme-staging-4821.azurewebsites.net',
  service: 'Azure App Service',
  status: withProof ? 'claimable' : 'likely',
  risk: 'high',
  evidence: [],
  explanation: 'x',
  proofOfConcept: 'x',
  remediation: 'x',
  ...(withProof === undefined ? {} : { proof: withProof }),
});

for (const backend of databaseBackends) {
  describe.skipIf(backend.skipReason)(`a finding's proof column on ${backend.name}`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await backend.open();
      await database.db.insert(workspaces).values({ id: 'ann', name: 'Ann' });
    });
    afterAll(() => database?.close());

    it('follows the latest report: its proof, null without one, null for reports stored before proofs', async () => {
      const at = new Date();
      const [row] = await database.db
        .insert(findings)
        .values({
          workspaceId: 'ann',
          domain: 'acme.test',
          key: 'k',
          subdomain: 'old.acme.test',
          latest: latest(proof),
          firstSeenAt: at,
          lastSeenAt: at,
        })
        .returning({ id: findings.id, proof: findings.proof });
      expect(row?.proof).toEqual(proof);
      const id = row?.id as string;
      for (const next of [null, undefined] as const) {
        await database.db
          .update(findings)
          .set({ latest: latest(next) })
          .where(eq(findings.id, id));
        const [again] = await database.db
          .select({ proof: findings.proof })
          .from(findings)
          .where(eq(findings.id, id));
        expect(again?.proof).toBeNull();
      }
    });
  });
}
