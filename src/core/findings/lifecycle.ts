import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { findings } from '../../db/schema.ts';
import { UNTIL_RECORD_CHANGES } from '../../model/acceptance.ts';
import type { FindingChanges, FindingRef, FindingView } from '../../model/contract.ts';
import { findingKey, identityHash } from './key.ts';

const refIn =
  (workspaceId: string) =>
  (f: FindingView): FindingRef => ({
    subdomain: f.subdomain,
    recordType: f.recordType,
    target: f.target,
    service: f.service,
    status: f.status,
    key: findingKey(workspaceId, f),
  });

/** The same record of the same name at the same service, whatever it points at now. */
const place = (f: Pick<FindingView, 'subdomain' | 'recordType' | 'service'>) =>
  `${f.subdomain}\n${f.recordType}\n${f.service}`;

/**
 * A domain's findings are a state, and this is the one place it changes: every view, count, trend
 * and alert reads the `findings` rows, never the latest scan's list (a partial scan, of a zone's
 * changed records or of one name, checks only some names).
 *
 * Compares a completed scan's findings with the domain's open findings and records the history:
 * new (first seen, or back after being resolved), changed (status or target), still open, and
 * resolved. A finding counts as resolved only when this scan checked its name again: a scan
 * without discovery says nothing about names it did not look at.
 */
export async function recordFindingHistory(
  db: Db,
  scan: { id: string; workspaceId: string; domain: string },
  found: FindingView[],
  checked: readonly string[],
  at: Date,
): Promise<FindingChanges> {
  const changes: FindingChanges = { new: [], changed: [], resolved: [], stillOpen: 0 };
  const ref = refIn(scan.workspaceId);
  const mine = and(eq(findings.workspaceId, scan.workspaceId), eq(findings.domain, scan.domain));
  const open = await db
    .select()
    .from(findings)
    .where(and(mine, isNull(findings.resolvedAt)));
  const openByKey = new Map(open.map((row) => [row.key, row]));
  const seen = new Set<string>();
  const unmatched: FindingView[] = [];

  for (const finding of found) {
    const key = identityHash(finding);
    const row = openByKey.get(key);
    if (!row) {
      unmatched.push(finding);
      continue;
    }
    seen.add(row.id);
    if (row.latest.status !== finding.status) {
      changes.changed.push({
        ...ref(finding),
        from: { status: row.latest.status, target: row.latest.target },
      });
    } else {
      changes.stillOpen += 1;
    }
    await db
      .update(findings)
      .set({ latest: finding, lastSeenAt: at, lastScanId: scan.id })
      .where(eq(findings.id, row.id));
  }

  const openByPlace = new Map(open.filter((row) => !seen.has(row.id)).map((row) => [place(row.latest), row]));
  for (const finding of unmatched) {
    const key = identityHash(finding);
    const moved = openByPlace.get(place(finding));
    if (moved) {
      openByPlace.delete(place(finding));
      seen.add(moved.id);
      changes.changed.push({
        ...ref(finding),
        from: { status: moved.latest.status, target: moved.latest.target },
      });
      // Another target or kind is another finding: an acceptance of the old one ends here, and says so.
      const ended = moved.acceptedAt
        ? {
            acceptedAt: null,
            acceptedNote: null,
            acceptedBy: null,
            acceptedByUserId: null,
            acceptedUntil: null,
            acceptedUntilRecordChanges: false,
            lapsedAcceptance: { by: moved.acceptedBy, until: UNTIL_RECORD_CHANGES, at: at.toISOString() },
            lapsedAlertedAt: null,
          }
        : {};
      await db
        .update(findings)
        .set({ key, latest: finding, lastSeenAt: at, lastScanId: scan.id, ...ended })
        .where(eq(findings.id, moved.id));
      continue;
    }
    changes.new.push(ref(finding));
    await db
      .insert(findings)
      .values({
        workspaceId: scan.workspaceId,
        domain: scan.domain,
        key,
        subdomain: finding.subdomain,
        latest: finding,
        firstSeenAt: at,
        lastSeenAt: at,
        firstScanId: scan.id,
        lastScanId: scan.id,
        openedByScanId: scan.id,
      })
      // Back after it was resolved: open again, with its history.
      .onConflictDoUpdate({
        target: [findings.workspaceId, findings.domain, findings.key],
        set: {
          latest: finding,
          lastSeenAt: at,
          lastScanId: scan.id,
          openedByScanId: scan.id,
          resolvedAt: null,
          resolvedByScanId: null,
        },
      });
  }

  const names = new Set(checked);
  for (const row of open) {
    if (seen.has(row.id) || !names.has(row.subdomain)) continue;
    changes.resolved.push(ref(row.latest));
    await db
      .update(findings)
      .set({ resolvedAt: at, resolvedByScanId: scan.id })
      .where(eq(findings.id, row.id));
  }
  return changes;
}
