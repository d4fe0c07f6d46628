import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { and, asc, eq, gte } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { audit } from '../../core/audit.ts';
import { inventoryView, replaceInventory, ZONE_FILE_SOURCE } from '../../core/dns-connections/inventory.ts';
import { assertFreeTierDomain } from '../../core/domains/free-tier.ts';
import { checkOwnership } from '../../core/domains/ownership.ts';
import { applyDomainLimit } from '../../core/domains/plan-limit.ts';
import { quotaView } from '../../core/domains/quota.ts';
import { requestScan, type ScanQueue } from '../../core/domains/scan-requests.ts';
import {
  latestScans,
  listDomains,
  newVerificationToken,
  nextScanAfter,
  ownDomain,
} from '../../core/domains/store.ts';
import { domainView } from '../../core/domains/views.ts';
import { BODY_LIMIT_KB, DNS_READ_RATE, ZONE_FILE_RATE } from '../../core/limits.ts';
import { currentUser, underUserLock } from '../../core/users/users.ts';
import type { Db } from '../../db/client.ts';
import { domains, firstScans, scans } from '../../db/schema.ts';
import { TREND_DAYS } from '../../model/constants.ts';
import { DEFAULT_SCAN_CONFIG, type TrendPoint } from '../../model/contract.ts';
import { DOMAIN_MESSAGES } from '../../model/domain-input.ts';
import { alertSettingsSchema, domainNameSchema, scanConfigSchema } from '../../model/schemas.ts';
import { parseZoneFile, ZoneFileError } from '../../scanner/zone/zone-file.ts';
import { type AuthDeps, type AuthedEnv, requireAuth } from '../auth/middleware.ts';
import { ApiError } from '../errors.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { countRequest } from '../middleware/rate-limit.ts';
import { readJson } from '../validation.ts';

export interface DomainDeps {
  queue: ScanQueue;
  /** The engine's resolvers, for the ownership lookup. */
  resolvers?: string[];
  now?: () => Date;
}

const smallBody = limitBody(BODY_LIMIT_KB.standard);

const addSchema = z.strictObject({ domain: domainNameSchema, scanConfig: scanConfigSchema.optional() });
const patchSchema = z
  .strictObject({ scanConfig: scanConfigSchema.optional(), alerts: alertSettingsSchema.optional() })
  .refine((body) => body.scanConfig || body.alerts, 'give scanConfig, alerts or both');

/** The caller's monitored domains (the dashboard issue's API contract). */
export function domainRoutes(db: Db, auth: AuthDeps | undefined, deps: DomainDeps) {
  const now = () => deps.now?.() ?? new Date();
  return new Hono<AuthedEnv>()
    .use(requireAuth(auth))
    .get('/', async (c) => {
      const user = await currentUser(db, c.var);
      return c.json(await listDomains(db, user, now()));
    })
    .post('/', smallBody, async (c) => {
      const body = await readJson(c, addSchema);
      const user = await currentUser(db, c.var);
      const row = await underUserLock(db, user.id, async (tx) => {
        const quota = await quotaView(tx, user, now());
        if (quota.currentDomains >= quota.maxDomains) {
          throw new ApiError(409, 'DOMAIN_LIMIT', DOMAIN_MESSAGES.limit(quota.maxDomains));
        }
        assertFreeTierDomain(user, c.var.token.email_verified === true, body.domain);
        const [added] = await tx
          .insert(domains)
          .values({
            userId: user.id,
            domain: body.domain,
            verificationToken: newVerificationToken(),
            scanConfig: body.scanConfig ?? DEFAULT_SCAN_CONFIG,
          })
          .onConflictDoNothing()
          .returning();
        return added;
      });
      if (!row) throw new ApiError(409, 'DOMAIN_EXISTS', `${body.domain} is already in your list`);
      await audit(db, {
        userId: user.id,
        action: 'domain.added',
        detail: { domainId: row.id, domain: row.domain },
        ip: c.get('clientAddress'),
      });
      return c.json({ domain: domainView(row, undefined) }, 201);
    })
    .post('/:id/verify', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      const result = await checkOwnership(row.domain, row.verificationToken, { resolvers: deps.resolvers });
      const at = now();
      if (result.verified) {
        const [updated] = await db
          .update(domains)
          .set({
            status: 'verified',
            verifiedAt: row.verifiedAt ?? at,
            verificationError: null,
            recordMissingSince: null,
            pausedReason: null,
            ownershipCheckedAt: at,
            nextScanAt: nextScanAfter(row.scanConfig, at),
          })
          .where(eq(domains.id, row.id))
          .returning();
        if (!updated) throw new ApiError(404, 'NOT_FOUND', 'Domain not found');
        if (row.status !== 'verified') {
          await audit(db, {
            userId: user.id,
            action: 'domain.verified',
            detail: { domainId: row.id, domain: row.domain },
            ip: c.get('clientAddress'),
          });
          // Monitoring starts with a first scan, the plan's own (it does not count against the
          // quota), once per account and name: removing the domain and adding it again is no way
          // to more free scans. Later verifications wait for the schedule or a counted scan.
          const [first] = await db
            .insert(firstScans)
            .values({ userId: user.id, domain: updated.domain })
            .onConflictDoNothing()
            .returning();
          if (first && !updated.overPlanLimit) {
            const { scanFrequency: _, ...config } = updated.scanConfig;
            await requestScan(db, deps.queue, {
              user,
              domain: updated,
              trigger: 'scheduled',
              config,
              now: at,
            });
          }
        }
        const latest = await latestScans(db, [updated.id]);
        return c.json({ verified: true, domain: domainView(updated, latest.get(updated.id)) });
      }
      // A DNS outage says nothing about the record: the domain keeps its status.
      const [updated] = result.definite
        ? await db
            .update(domains)
            .set(
              row.status === 'verified'
                ? { verificationError: result.error }
                : { status: 'failed', verificationError: result.error },
            )
            .where(eq(domains.id, row.id))
            .returning()
        : [row];
      const latest = await latestScans(db, [row.id]);
      return c.json({
        verified: false,
        error: result.error,
        domain: domainView(updated ?? row, latest.get(row.id)),
      });
    })
    .patch('/:id', smallBody, async (c) => {
      const { scanConfig, alerts } = await readJson(c, patchSchema);
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      const latest = (await latestScans(db, [row.id])).get(row.id);
      const last = latest?.completedAt ?? latest?.createdAt ?? now();
      const [updated] = await db
        .update(domains)
        .set({
          ...(scanConfig
            ? { scanConfig, nextScanAt: row.status === 'verified' ? nextScanAfter(scanConfig, last) : null }
            : {}),
          ...(alerts
            ? { alertsEmail: alerts.email, alertsWebhook: alerts.webhooks, alertMinStatus: alerts.minStatus }
            : {}),
        })
        .where(and(eq(domains.id, row.id), eq(domains.userId, user.id)))
        .returning();
      if (!updated) throw new ApiError(404, 'NOT_FOUND', 'Domain not found');
      return c.json({ domain: domainView(updated, latest) });
    })
    .get('/:id/trend', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      const since = new Date(now().getTime() - TREND_DAYS * 24 * 60 * 60_000);
      const completed = await db
        .select({ id: scans.id, at: scans.completedAt, findings: scans.findings })
        .from(scans)
        .where(and(eq(scans.domainId, row.id), eq(scans.status, 'completed'), gte(scans.completedAt, since)))
        .orderBy(asc(scans.completedAt));
      const points: TrendPoint[] = completed.map((scan) => ({
        at: (scan.at as Date).toISOString(),
        scanId: scan.id,
        claimable: scan.findings.filter((f) => f.status === 'claimable').length,
        likely: scan.findings.filter((f) => f.status === 'likely').length,
        review: scan.findings.filter((f) => f.status === 'review').length,
      }));
      return c.json({ points });
    })
    .put('/:id/zone-file', limitBody(BODY_LIMIT_KB.zoneFile), async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      await countRequest(c, db, `${ZONE_FILE_RATE.name}:${user.id}`, ZONE_FILE_RATE);
      if (!c.req.header('content-type')?.startsWith('text/plain')) {
        throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the zone file as text/plain');
      }
      if (row.status !== 'verified') {
        throw new ApiError(
          409,
          'DOMAIN_NOT_VERIFIED',
          `Verify that you own ${row.domain} before uploading its zone`,
        );
      }
      const body = Readable.fromWeb(
        (c.req.raw.body ?? new ReadableStream()) as NodeReadableStream<Uint8Array>,
      );
      try {
        const update = await replaceInventory(
          db,
          row.id,
          ZONE_FILE_SOURCE,
          parseZoneFile(body, { zone: row.domain }),
          now(),
        );
        return c.json({ records: update.records });
      } catch (error) {
        if (error instanceof ZoneFileError)
          throw new ApiError(400, 'VALIDATION_ERROR', `Zone file ${error.message}`);
        throw error;
      }
    })
    .get('/:id/records', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      await countRequest(c, db, `${DNS_READ_RATE.name}:${user.id}`, DNS_READ_RATE);
      return c.json(await inventoryView(db, row));
    })
    .post('/:id/keep', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      // The owner's choice comes first; the domain it pushes beyond the plan is the one chosen least recently.
      await db.update(domains).set({ keptAt: now() }).where(eq(domains.id, row.id));
      await applyDomainLimit(db, user.id);
      const updated = await ownDomain(db, user.id, row.id);
      const latest = await latestScans(db, [row.id]);
      return c.json({ domain: domainView(updated, latest.get(row.id)) });
    })
    .delete('/:id', async (c) => {
      const user = await currentUser(db, c.var);
      const row = await ownDomain(db, user.id, c.req.param('id'));
      // Its scans stay until the plan's retention purges them (they lose the link to the domain).
      await db.delete(domains).where(and(eq(domains.id, row.id), eq(domains.userId, user.id)));
      // A place within the plan may have come free for a domain beyond it.
      await applyDomainLimit(db, user.id);
      await audit(db, {
        userId: user.id,
        action: 'domain.removed',
        detail: { domainId: row.id, domain: row.domain },
        ip: c.get('clientAddress'),
      });
      return c.body(null, 204);
    });
}
