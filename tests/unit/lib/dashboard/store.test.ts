import { beforeEach, describe, expect, it } from 'vitest';
import { $domains, dropDomain, loadDomains, upsertDomain } from '../../../../src/lib/dashboard/store.ts';
import type { DomainService } from '../../../../src/lib/request/api.ts';
import type { DomainView, QuotaView } from '../../../../src/model/contract.ts';
import { DEFAULT_ALERT_SETTINGS, DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';

const quota: QuotaView = {
  tier: 'intro',
  currentDomains: 1,
  maxDomains: 25,
  scansUsedToday: 0,
  maxScansPerDay: 25,
  scansUsedThisMonth: 0,
  maxScansPerMonth: 750,
  resetDate: '2026-12-01T00:00:00.000Z',
  sharedWith: [],
};

function domain(id: string, name: string): DomainView {
  return {
    id,
    domain: name,
    status: 'pending',
    verificationMethod: 'dns',
    verificationToken: 'token',
    txtRecord: { type: 'TXT', name: '@', value: 'danglewatch-verify=token' },
    alerts: DEFAULT_ALERT_SETTINGS,
    addedAt: '2026-11-22T10:00:00.000Z',
    verifiedAt: null,
    proof: null,
    lastScanAt: null,
    nextScanAt: null,
    vulnerabilitiesCount: 0,
    openFindings: { claimable: 0, likely: 0, review: 0, accepted: 0 },
    isActive: true,
    pausedReason: null,
    overPlanLimit: false,
    inventory: null,
    lastScanId: null,
    scanStatus: null,
    subdomainsScanned: null,
    criticalCount: null,
    falsePositivesFiltered: null,
    durationSeconds: null,
    fullScan: null,
    scanConfig: DEFAULT_SCAN_CONFIG,
    error: null,
  };
}

const service = (list: DomainService['list']) => ({ list }) as unknown as DomainService;

describe('the domains store', () => {
  beforeEach(() => {
    $domains.set({ domains: [], quota: null, loading: true, error: null, loadedAt: null });
  });

  it('loads the list and the quota from the server', async () => {
    await loadDomains(service(async () => ({ domains: [domain('1', 'acme.io')], quota })));
    const state = $domains.get();
    expect(state.loading).toBe(false);
    expect(state.domains.map((d) => d.domain)).toEqual(['acme.io']);
    expect(state.quota).toEqual(quota);
    expect(state.loadedAt).not.toBeNull();
  });

  it("says 'Failed to load dashboard data' and keeps what it had when a reload fails", async () => {
    await loadDomains(service(async () => ({ domains: [domain('1', 'acme.io')], quota })));
    await loadDomains(
      service(async () => {
        throw new Error('down');
      }),
    );
    expect($domains.get().error).toBe('Failed to load dashboard data');
    expect($domains.get().domains).toHaveLength(1);
  });

  it('adds, updates and drops domains, counting them in the quota', async () => {
    await loadDomains(service(async () => ({ domains: [domain('1', 'acme.io')], quota })));
    upsertDomain(domain('2', 'app.acme.io'));
    expect($domains.get().domains.map((d) => d.id)).toEqual(['2', '1']);
    expect($domains.get().quota?.currentDomains).toBe(2);
    upsertDomain({ ...domain('2', 'app.acme.io'), status: 'verified' });
    expect($domains.get().domains[0]?.status).toBe('verified');
    expect($domains.get().quota?.currentDomains).toBe(2);
    dropDomain('1');
    expect($domains.get().domains.map((d) => d.id)).toEqual(['2']);
    expect($domains.get().quota?.currentDomains).toBe(1);
  });
});
