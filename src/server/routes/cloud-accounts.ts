import { Hono } from 'hono';
import { z } from 'zod';
import type { CloudCallOptions } from '../../connectors/cloud/provider.ts';
import type { WorkspaceContext } from '../../core/access.ts';
import {
  createCloudAccount,
  getCloudAccount,
  listCloudAccounts,
  removeCloudAccount,
  requestCloudSync,
  updateCloudAccount,
} from '../../core/cloud-accounts/accounts.ts';
import { cloudInventoryView } from '../../core/cloud-accounts/inventory.ts';
import type { SecretsKey } from '../../core/connections/secrets.ts';
import { BODY_LIMIT_KB, CLOUD_ACCOUNT_RATE, DNS_READ_RATE } from '../../core/limits.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import { MAX_GRACE_HOURS } from '../../model/cloud-accounts.ts';
import { CONNECTION_LABEL_MAX } from '../../model/constants.ts';
import { CLOUD_PROVIDER_IDS } from '../../model/contract.ts';
import { cloudInventoryQuerySchema, enabledField } from '../../model/schemas.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';
import { sessionContext } from '../workspace-scope.ts';

export interface CloudAccountDeps {
  /** The key credentials are sealed with; without one, every call says why it cannot work. */
  secrets?: SecretsKey;
  /** The clouds' endpoints (their environment variables) and timeouts. */
  cloudOptions?: CloudCallOptions;
  /** Queues a read of the account now; without it, 'sync now' answers 503. */
  enqueueSync?: (cloudAccountId: string) => Promise<void>;
}

const createSchema = z.strictObject({
  provider: z.enum(CLOUD_PROVIDER_IDS),
  label: z.string().trim().max(CONNECTION_LABEL_MAX).optional(),
  // Checked against the cloud's own schema once the cloud is known.
  credentials: z.record(z.string(), z.unknown()),
});
const GRACE_RANGE = `must be a whole number of hours from 0 to ${MAX_GRACE_HOURS}`;
const updateSchema = z
  .strictObject({
    enabled: enabledField.optional(),
    label: z.string().trim().max(CONNECTION_LABEL_MAX).optional(),
    graceHours: z
      .number({ error: GRACE_RANGE })
      .int(GRACE_RANGE)
      .min(0, GRACE_RANGE)
      .max(MAX_GRACE_HOURS, GRACE_RANGE)
      .optional(),
  })
  .refine(
    (v) => v.enabled !== undefined || v.label !== undefined || v.graceHours !== undefined,
    'give enabled, a label or graceHours',
  );

/** The workspace's cloud accounts (read-only credentials) and what they hold. */
export function cloudAccountRoutes(db: Db, auth: AuthDeps | undefined, deps: CloudAccountDeps) {
  const options = deps.cloudOptions ?? {};
  // Each of these makes our server call a cloud for the caller: counted per account.
  const limited = async (c: Parameters<typeof countRequest>[0], ctx: WorkspaceContext) =>
    countRequest(c, db, `${CLOUD_ACCOUNT_RATE.name}:${ctx.actor.userId}`, CLOUD_ACCOUNT_RATE);
  const reads = async (c: Parameters<typeof countRequest>[0], ctx: WorkspaceContext) =>
    countRequest(c, db, `${DNS_READ_RATE.name}:${ctx.actor.userId}`, DNS_READ_RATE);

  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const ctx = await sessionContext(db, c);
      await reads(c, ctx);
      return c.json({ accounts: await listCloudAccounts(db, ctx) });
    })
    .post('/', limitBody(BODY_LIMIT_KB.connection), async (c) => {
      const body = await readJson(c, createSchema);
      const ctx = await sessionContext(db, c);
      await limited(c, ctx);
      const account = await createCloudAccount(db, deps.secrets, ctx, body, options, deps.enqueueSync);
      return c.json({ account }, 201);
    })
    .get('/:id', async (c) => {
      const ctx = await sessionContext(db, c);
      await reads(c, ctx);
      return c.json({ account: await getCloudAccount(db, ctx, c.req.param('id')) });
    })
    .patch('/:id', limitBody(BODY_LIMIT_KB.small), async (c) => {
      const body = await readJson(c, updateSchema);
      const ctx = await sessionContext(db, c);
      return c.json({ account: await updateCloudAccount(db, ctx, c.req.param('id'), body) });
    })
    .delete('/:id', async (c) => {
      const ctx = await sessionContext(db, c);
      await reads(c, ctx);
      await removeCloudAccount(db, ctx, c.req.param('id'));
      return c.body(null, 204);
    })
    .post('/:id/sync', async (c) => {
      const ctx = await sessionContext(db, c);
      const account = await requestCloudSync(db, deps.secrets, ctx, c.req.param('id'), {
        enqueue: deps.enqueueSync,
        counted: () => limited(c, ctx),
      });
      return c.json({ account, queued: true }, 202);
    })
    .get('/:id/inventory', async (c) => {
      const page = parseInput(cloudInventoryQuerySchema, c.req.query());
      const ctx = await sessionContext(db, c);
      await reads(c, ctx);
      return c.json(await cloudInventoryView(db, ctx, c.req.param('id'), page));
    });
}
