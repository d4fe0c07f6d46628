// A domain's findings are a state, not the last scan's list: a partial scan (a zone's changed
// records) resolves only what it checked, accepted findings leave every count, and the totals
// count what is open now however many scans saw it. Scans are stored as the worker stores them and
// the lifecycle the worker runs records each one; every number is read through the HTTP API.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordFindingHistory } from '../../../src/core/findings/lifecycle.ts';
import { scans } from '../../../src/db/schema.ts';
import {
  DEFAULT_SCAN_CONFIG,
  type DomainView,
  type FindingRecord,
  type FindingView,
  type ScanStats,
  type ScanView,
  type TrendPoint,
} from '../../../src/model/contract.ts';
import { findingView } from '../../fixtures/finding.ts';
import { apiSuite } from '../../helpers/api-suite.ts';
import { embeddedOnly } from '../../helpers/databases.ts';
import { insertTxtVerifiedDomain } from '../../helpers/domains.ts';
import type { MintedUser } from '../../helpers/emulator.ts';

const DAY = 24 * 60 * 60_000;
const finding = (subdomain: string, status: FindingView['status'] = 'claimable') =>
  findingView(subdomain, { status, target: `${subdomain.split('.')[0]}-gone.herokuapp.com` });

for (const backend of embeddedOnly) {
  describe.skipIf(backend.skipReason)(
    `open findings are a state on ${backend.name}${backend.skipReason ? ` (skipped: ${backend.skipReason})` : ''}`,
    () => {
      const start = new Date('2026-11-01T06:00:00Z');
      const api = apiSuite(backend, { now: () => new Date(start.getTime() + 20 * DAY) });
      const { call, tag } = api;
      const name = `state-${tag}.com`;
      let ann: MintedUser;
      let domainId: string;
      const scanIds: string[] = [];

      /** A completed scan of the domain, stored and recorded as the worker does. */
      const scan = async (at: Date, found: FindingView[], checked: string[], partial = false) => {
        const id = randomUUID();
        const [row] = await api.db
          .insert(scans)
          .values({
            id,
            workspaceId: ann.uid,
            domainId,
            domain: name,
            status: 'completed',
            trigger: partial ? 'zone-change' : 'scheduled',
            createdAt: at,
            startedAt: at,
            completedAt: at,
            config: { ...DEFAULT_SCAN_CONFIG, ...(partial ? { names: checked } : {}) },
            subdomainsScanned: checked.length,
            vulnerabilitiesFound: found.length,
            findings: found,
            subdomains: checked,
          })
          .returning();
        if (!row) throw new Error('no scan');
        await recordFindingHistory(api.db, row, found, checked, at);
        scanIds.push(id);
        return id;
      };
      const card = async () => {
        const { domains: list } = (await (await call('/api/domains', { token: ann.idToken })).json()) as {
          domains: DomainView[];
        };
        return list.find((d) => d.id === domainId);
      };
      const listed = async (state: string) =>
        (
          (await (
            await call(`/api/findings?domain=${name}&state=${state}`, { token: ann.idToken })
          ).json()) as {
            findings: FindingRecord[];
          }
        ).findings;
      const stats = async () =>
        (await (await call('/scan/api/v1/scans/stats', { token: ann.idToken })).json()) as ScanStats;

      const names = ['a', 'b', 'c'].map((l) => `${l}.${name}`);
      const [a, b, c] = names as [string, string, string];

      beforeAll(async () => {
        ann = await api.signIn('ann', { email: `ann@${name}` });
        domainId = await insertTxtVerifiedDomain(api.db, ann.uid, name, start);
      });

      it('a partial scan resolves what it checked and leaves every other open finding open', async () => {
        const full = await scan(start, [finding(a), finding(b), finding(c, 'likely')], [name, ...names]);
        const partial = await scan(new Date(start.getTime() + DAY), [], [a], true);
        const view = await card();
        expect(view).toMatchObject({
          vulnerabilitiesCount: 2,
          openFindings: { claimable: 1, likely: 1, review: 0, accepted: 0 },
        });
        const open = await listed('open');
        expect(open.map((f) => f.finding.subdomain).sort()).toEqual([b, c]);
        expect(open.every((f) => f.openedByScanId === full && f.resolvedByScanId === null)).toBe(true);
        const [resolved] = await listed('resolved');
        expect(resolved).toMatchObject({ finding: { subdomain: a }, resolvedByScanId: partial });

        // The partial scan's own view lists what it found, and says it was partial.
        const { scans: list } = (await (await call('/scan/api/v1/scans', { token: ann.idToken })).json()) as {
          scans: ScanView[];
        };
        expect(list.find((s) => s.scan_id === partial)).toMatchObject({
          partial: true,
          namesChecked: 1,
          vulnerabilities_found: 0,
        });
        expect(list.find((s) => s.scan_id === full)).toMatchObject({ partial: false, namesChecked: 4 });
        // The trend follows the state: 3 open after the full scan, 2 after the partial one.
        const { points } = (await (
          await call(`/api/domains/${domainId}/trend`, { token: ann.idToken })
        ).json()) as { points: TrendPoint[] };
        expect(points.map((p) => p.claimable + p.likely + p.review)).toEqual([3, 2]);
      });

      it('an accepted finding leaves the counts and is listed as accepted', async () => {
        const [target] = (await listed('open')).filter((f) => f.finding.subdomain === b);
        const res = await call(`/api/findings/${target?.id}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: true, note: 'Kept for a migration', until: 'record-changes' },
        });
        expect(res.status).toBe(200);
        expect(await card()).toMatchObject({
          vulnerabilitiesCount: 1,
          openFindings: { claimable: 0, likely: 1, review: 0, accepted: 1 },
        });
        expect((await listed('open')).map((f) => f.finding.subdomain)).toEqual([c]);
        // One number: the trend's latest point says what the badge and the counts say, though the
        // acceptance came after the last scan (a change scan); the card shows the full scan before it.
        const { points } = (await (
          await call(`/api/domains/${domainId}/trend`, { token: ann.idToken })
        ).json()) as { points: TrendPoint[] };
        expect(points.at(-1)).toMatchObject({ claimable: 0, likely: 1, review: 0 });
        expect(points.at(0)).toMatchObject({ claimable: 2, likely: 1, review: 0 });
        const view = await card();
        expect(view?.fullScan).toMatchObject({ id: scanIds[0], status: 'completed', subdomainsScanned: 4 });
        expect(view).toMatchObject({ lastScanId: scanIds[1], subdomainsScanned: 1 });
        const accepted = await listed('accepted');
        expect(accepted.map((f) => f.finding.subdomain)).toEqual([b]);
        expect(accepted[0]?.accepted).toMatchObject({ note: 'Kept for a migration' });
        expect((await stats()).issues_found).toBe(1);
      });

      it('ten daily scans of the same open findings count them once', async () => {
        await call(`/api/findings/${(await listed('accepted'))[0]?.id}`, {
          method: 'PATCH',
          token: ann.idToken,
          body: { accepted: false },
        });
        for (let day = 2; day < 12; day++)
          await scan(
            new Date(start.getTime() + day * DAY),
            [finding(b), finding(c, 'likely')],
            [name, ...names],
          );
        expect((await stats()).issues_found).toBe(2);
        expect((await card())?.vulnerabilitiesCount).toBe(2);
        const { points } = (await (
          await call(`/api/domains/${domainId}/trend`, { token: ann.idToken })
        ).json()) as { points: TrendPoint[] };
        expect(points.slice(2).every((p) => p.claimable + p.likely + p.review === 2)).toBe(true);
        expect(scanIds).toHaveLength(12);
      });
    },
  );
}
