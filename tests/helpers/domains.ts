import type { Db } from '../../src/db/client.ts';
import { domains } from '../../src/db/schema.ts';
import { DEFAULT_SCAN_CONFIG } from '../../src/model/contract.ts';

/** A domain its TXT record proved at `at`, stored as verification leaves it; answers its id. */
export async function insertTxtVerifiedDomain(db: Db, workspaceId: string, name: string, at = new Date()) {
  const [row] = await db
    .insert(domains)
    .values({
      workspaceId,
      domain: name,
      status: 'verified',
      proof: 'txt',
      verificationToken: 'tok',
      scanConfig: DEFAULT_SCAN_CONFIG,
      verifiedAt: at,
    })
    .returning();
  if (!row) throw new Error('no domain row');
  return row.id;
}
