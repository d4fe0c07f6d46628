import { eq } from 'drizzle-orm';
import { cloudProviders } from '../../connectors/cloud/index.ts';
import {
  CLOUD_NAMES,
  type CloudCallOptions,
  CloudError,
  type CloudId,
  cloudCredentialSchemas,
} from '../../connectors/cloud/provider.ts';
import { type Db, inTransaction } from '../../db/client.ts';
import { cloudAccounts } from '../../db/schema.ts';
import { memberName } from '../../model/connections.ts';
import type { CloudAccountView } from '../../model/contract.ts';
import { authorize, type WorkspaceContext } from '../access.ts';
import { auditIn } from '../audit.ts';
import { answererNames, enableConnection } from '../connections/answerable.ts';
import { connectChecked } from '../connections/connect.ts';
import { credentialHint, parseCredential, sealCredential } from '../connections/credentials.ts';
import { ownRow, removeOwn, rowsOf, viewOfOne } from '../connections/own.ts';
import { type ReadQueue, requestRead } from '../connections/reads.ts';
import type { SecretsKey } from '../connections/secrets.ts';
import { ServiceError } from '../errors.ts';
import { inventoryCounts } from './inventory.ts';
import { type CloudAccountRow, cloudAccountView } from './store.ts';

/** How long an address may be missing before a record pointing at it is a finding, unless the account says. */
export const DEFAULT_GRACE_HOURS = 48;

/** The part of the credential that tells two apart: its key, client, service account or token. */
function identifyingPart(cloud: CloudId, credentials: Record<string, string>): string | undefined {
  if (cloud === 'aws') return credentials.accessKeyId;
  if (cloud === 'azure') return credentials.clientId;
  if (cloud === 'gcloud')
    return /"client_email"\s*:\s*"([^"]+)"/.exec(credentials.serviceAccountKey ?? '')?.[1] ?? '';
  return credentials.token;
}

/** A cloud's refusal of the credential is the caller's to fix; anything else is the cloud down. */
const cloudFailure = (error: unknown) =>
  error instanceof CloudError ? (error.failure === 'credentials' ? 'refused' : 'unreachable') : undefined;

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
  const workspaceId = ctx.workspace.id;
  const credentials = parseCredential(cloudCredentialSchemas[input.provider], input.credentials);
  const check = () => cloudProviders[input.provider].check(credentials as never, options);
  const row = await connectChecked(
    db,
    ctx,
    'cloud',
    secrets,
    { check, failure: cloudFailure },
    async (tx, key) => {
      const [inserted] = await tx
        .insert(cloudAccounts)
        .values({
          workspaceId,
          provider: input.provider,
          label: input.label?.trim() || CLOUD_NAMES[input.provider],
          credentialSealed: sealCredential(
            key,
            'cloud',
            { workspaceId, service: input.provider },
            credentials,
          ),
          credentialHint: credentialHint(identifyingPart(input.provider, credentials)),
          createdBy: ctx.actor.email ?? ctx.actor.displayName,
          answeredBy: ctx.actor.userId,
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
    },
  );
  await enqueue?.(row.id);
  return cloudAccountView(row, { addresses: 0, resources: 0 }, memberName(ctx.actor));
}

/** The accounts as the API shows them: with what each inventory remembers, and who answers for it. */
async function viewsOf(db: Db, rows: CloudAccountRow[]): Promise<CloudAccountView[]> {
  const counts = await inventoryCounts(
    db,
    rows.map((row) => row.id),
  );
  const nameOf = await answererNames(
    db,
    rows.map((row) => row.answeredBy),
  );
  return rows.map((row) =>
    cloudAccountView(row, counts.get(row.id) ?? { addresses: 0, resources: 0 }, nameOf(row.answeredBy)),
  );
}

const viewOf = (db: Db, row: CloudAccountRow) => viewOfOne((rows) => viewsOf(db, rows), row);

export async function listCloudAccounts(db: Db, ctx: WorkspaceContext): Promise<CloudAccountView[]> {
  authorize(ctx, 'read');
  return viewsOf(db, await rowsOf(db, 'cloud', ctx.workspace.id));
}

export async function getCloudAccount(db: Db, ctx: WorkspaceContext, id: string): Promise<CloudAccountView> {
  authorize(ctx, 'read');
  return viewOf(db, await ownRow(db, 'cloud', ctx.workspace.id, id));
}

/**
 * Renames the account, changes how long a missing address waits before it is a finding, or
 * re-enables it (`enabled`) once its answerer's leaving disabled it: the admin who does it answers
 * for it from now on, and it is read again on the next scheduled sync.
 */
export async function updateCloudAccount(
  db: Db,
  ctx: WorkspaceContext,
  id: string,
  { enabled, ...change }: { enabled?: true; label?: string; graceHours?: number },
): Promise<CloudAccountView> {
  authorize(ctx, 'cloud-accounts.manage');
  const account = await ownRow(db, 'cloud', ctx.workspace.id, id);
  if (enabled) {
    await enableConnection(db, ctx, 'cloud', account.id, {
      cloudAccountId: account.id,
      label: account.label,
    });
  }
  if (change.label === undefined && change.graceHours === undefined) return getCloudAccount(db, ctx, id);
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
  return viewOf(db, row);
}

/** Removes the account: its sealed credential and its inventory go with the row, at once. */
export async function removeCloudAccount(db: Db, ctx: WorkspaceContext, id: string): Promise<void> {
  authorize(ctx, 'cloud-accounts.manage');
  await removeOwn(db, ctx, 'cloud', id);
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
  sync: ReadQueue,
): Promise<CloudAccountView> {
  authorize(ctx, 'cloud-accounts.manage');
  return viewOf(db, await requestRead(db, 'cloud', { workspaceId: ctx.workspace.id, id }, secrets, sync));
}
