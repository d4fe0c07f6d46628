import { asc, eq } from 'drizzle-orm';
import { type Db, inTransaction } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import type { CloudAccountView } from '../../model/contract.ts';
import { cloudProviders } from '../../scanner/cloud/index.ts';
import {
  CLOUD_NAMES,
  type CloudCallOptions,
  CloudError,
  type CloudId,
  cloudCredentialSchemas,
} from '../../scanner/cloud/provider.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import type { SecretsKey } from '../dns-connections/secrets.ts';
import { seal } from '../dns-connections/secrets.ts';
import { ServiceError } from '../errors.ts';
import { parseInput } from '../validation.ts';
import { inventoryCounts } from './inventory.ts';
import { cloudAccountView, ownCloudAccount } from './store.ts';

/** How long an address may be missing before a record pointing at it is a finding, unless the account says. */
export const DEFAULT_GRACE_HOURS = 48;

function requireKey(secrets: SecretsKey | undefined): Buffer {
  if (!secrets?.key)
    throw new ServiceError(
      'unavailable',
      'CLOUD_ACCOUNTS_UNAVAILABLE',
      secrets && !secrets.key ? secrets.reason : 'Cloud accounts are not set up on this server',
    );
  return secrets.key;
}

/** The last four characters of the credential's identifying part: enough to tell two apart. */
function hintOf(cloud: CloudId, credentials: Record<string, string>): string {
  const part =
    cloud === 'aws'
      ? credentials.accessKeyId
      : cloud === 'azure'
        ? credentials.clientId
        : cloud === 'gcloud'
          ? (/"client_email"\s*:\s*"([^"]+)"/.exec(credentials.serviceAccountKey ?? '')?.[1] ?? '')
          : credentials.token;
  return (part ?? '').slice(-4);
}

/** A cloud's refusal in the API's words: the cloud's own message, never the credential. */
function cloudFailure(error: unknown): never {
  if (!(error instanceof CloudError)) throw error;
  if (error.failure === 'credentials') throw new ServiceError('invalid', 'CLOUD_REFUSED', error.message);
  throw new ServiceError('upstream-failed', 'CLOUD_UNAVAILABLE', error.message);
}

/**
 * Checks a credential with one read call and stores it sealed; the first full read is queued
 * (`enqueue`). A credential the cloud refuses is not stored.
 */
export async function createCloudAccount(
  db: Db,
  secrets: SecretsKey | undefined,
  ctx: WorkspaceContext,
  input: { provider: CloudId; label?: string; credentials: unknown },
  options: CloudCallOptions,
  enqueue?: (cloudAccountId: string) => Promise<void>,
): Promise<CloudAccountView> {
  authorize(ctx, 'cloud-accounts.manage');
  const key = requireKey(secrets);
  const provider = cloudProviders[input.provider];
  const credentials = parseInput(cloudCredentialSchemas[input.provider], input.credentials) as Record<
    string,
    string
  >;
  await provider.check(credentials as never, options).catch(cloudFailure);
  const workspaceId = ctx.workspace.id;
  const row = await inTransaction(db, async (tx) => {
    const [inserted] = await tx
      .insert(cloudAccounts)
      .values({
        workspaceId,
        provider: input.provider,
        label: input.label?.trim() || CLOUD_NAMES[input.provider],
        credentialSealed: seal(key, JSON.stringify(credentials), workspaceId),
        credentialHint: hintOf(input.provider, credentials),
        createdBy: ctx.actor.email ?? ctx.actor.displayName,
        graceHours: DEFAULT_GRACE_HOURS,
      })
      .returning();
    if (!inserted) throw new Error('insert returned no cloud account');
    await auditIn(tx, ctx, 'cloud.connected', {
      cloudAccountId: inserted.id,
      provider: CLOUD_NAMES[input.provider],
      label: inserted.label,
    });
    return inserted;
  });
  await enqueue?.(row.id);
  return cloudAccountView(row, { addresses: 0, resources: 0 });
}

export async function listCloudAccounts(db: Db, ctx: WorkspaceContext): Promise<CloudAccountView[]> {
  authorize(ctx, 'read');
  const rows = await db
    .select()
    .from(cloudAccounts)
    .where(eq(cloudAccounts.workspaceId, ctx.workspace.id))
    .orderBy(asc(cloudAccounts.createdAt));
  const counts = await inventoryCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => cloudAccountView(row, counts.get(row.id) ?? { addresses: 0, resources: 0 }));
}

export async function getCloudAccount(db: Db, ctx: WorkspaceContext, id: string): Promise<CloudAccountView> {
  authorize(ctx, 'read');
  const row = await ownCloudAccount(db, ctx.workspace.id, id);
  const counts = await inventoryCounts(db, [row.id]);
  return cloudAccountView(row, counts.get(row.id) ?? { addresses: 0, resources: 0 });
}

/** Renames the account, or changes how long a missing address waits before it is a finding. */
export async function updateCloudAccount(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  change: { label?: string; graceHours?: number },
): Promise<CloudAccountView> {
  authorize(ctx, 'cloud-accounts.manage');
  const account = await ownCloudAccount(db, ctx.workspace.id, id);
  const row = await inTransaction(db, async (tx) => {
    const [updated] = await tx
      .update(cloudAccounts)
      .set({
        ...(change.label !== undefined
          ? { label: change.label.trim() || CLOUD_NAMES[account.provider as CloudId] }
          : {}),
        ...(change.graceHours !== undefined ? { graceHours: change.graceHours } : {}),
      })
      .where(eq(cloudAccounts.id, account.id))
      .returning();
    if (!updated) throw new ServiceError('not-found', 'NOT_FOUND', 'Cloud account not found');
    await auditIn(tx, ctx, 'cloud.changed', { cloudAccountId: updated.id, label: updated.label, ...change });
    return updated;
  });
  const counts = await inventoryCounts(db, [row.id]);
  return cloudAccountView(row, counts.get(row.id) ?? { addresses: 0, resources: 0 });
}

/** Removes the account: its sealed credential and its inventory go with the row, at once. */
export async function removeCloudAccount(db: Db, ctx: WorkspaceContext, id: string): Promise<void> {
  authorize(ctx, 'cloud-accounts.manage');
  const account = await ownCloudAccount(db, ctx.workspace.id, id);
  await inTransaction(db, async (tx) => {
    await tx.delete(cloudAccounts).where(eq(cloudAccounts.id, account.id));
    await auditIn(tx, ctx, 'cloud.disconnected', {
      cloudAccountId: account.id,
      provider: CLOUD_NAMES[account.provider as CloudId] ?? account.provider,
      label: account.label,
    });
  });
}

/**
 * Asks for a read of the account now: `sync.enqueue` queues it for the worker (none on a server
 * that runs no syncs), after `sync.counted` has counted it against the caller's rate. Answers the
 * account as it stands until then.
 */
export async function requestCloudSync(
  db: Db,
  secrets: SecretsKey | undefined,
  ctx: WorkspaceContext,
  id: string,
  sync: { enqueue: ((cloudAccountId: string) => Promise<void>) | undefined; counted: () => Promise<void> },
): Promise<CloudAccountView> {
  authorize(ctx, 'cloud-accounts.manage');
  const account = await ownCloudAccount(db, ctx.workspace.id, id);
  requireKey(secrets);
  if (!sync.enqueue) {
    throw new ServiceError('unavailable', 'SYNC_UNAVAILABLE', 'Cloud syncs are not running on this server');
  }
  await sync.counted();
  await sync.enqueue(account.id);
  const counts = await inventoryCounts(db, [account.id]);
  return cloudAccountView(account, counts.get(account.id) ?? { addresses: 0, resources: 0 });
}
