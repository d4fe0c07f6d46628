import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { isScanActive } from '../../../lib/dashboard/format.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { $serviceHealth, watchServiceHealth } from '../../../lib/dashboard/service-health.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $domains, loadDomains } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';
import { PROGRESS_POLL_MS } from '../../../model/constants.ts';
import type { DomainView } from '../../../model/contract.ts';
import { DOMAIN_MESSAGES } from '../../../model/domain-input.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { EmptyState } from '../EmptyState.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { FreeRuleNotice } from '../shared/FreeRuleNotice.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { READ_ONLY_HINT, useCan } from '../shared/use-can.ts';
import { useNow } from '../shared/use-now.ts';
import { useScanStats } from '../shared/use-scan-stats.ts';
import { useWebmailOnFree } from '../shared/use-webmail-on-free.ts';
import { AddDomainModal } from './AddDomainModal.tsx';
import { DomainCard } from './DomainCard.tsx';
import { HealthBanner } from './HealthBanner.tsx';
import { HealthIndicator } from './HealthIndicator.tsx';
import { PlanUsageCard } from './PlanUsageCard.tsx';
import { ProofsOffNotice } from './ProofsOffNotice.tsx';
import { RemoveDomainDialog } from './RemoveDomainDialog.tsx';

/** How often the list is read while a scan of one of the domains runs. */
const DOMAINS_POLL_MS = 3 * PROGRESS_POLL_MS;

/** The domains screen ('Domain Management'), from GET /api/domains and GET /scan/health. */
export function DomainsSection() {
  const auth = useAuth();
  const { domains, quota, loading, error, loadedAt } = useStore($domains);
  const mayWrite = useCan('domains.write');
  // Free leaves a webmail account no domain to add: the rule, first, before any click.
  const webmailOnFree = useWebmailOnFree().applies;
  const health = useStore($serviceHealth);
  const now = useNow();
  const stats = useScanStats();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<DomainView | null>(null);

  useEffect(() => {
    void loadDomains(dashboardApi().domains);
    return watchServiceHealth();
  }, []);

  // While a domain's scan runs, its card follows it: the list is read again until every scan ended.
  const scanning = domains.some((d) => isScanActive(d.scanStatus));
  useEffect(() => {
    if (!scanning) return;
    const timer = setInterval(() => void loadDomains(dashboardApi().domains), DOMAINS_POLL_MS);
    return () => clearInterval(timer);
  }, [scanning]);

  // A degraded service is announced once, when it becomes degraded.
  const degraded = health.status === 'degraded';
  useEffect(() => {
    if (degraded) toast({ title: 'Service Degraded', description: DASHBOARD_MESSAGES.degradedToast });
  }, [degraded]);

  const serviceDown = health.status === 'down';
  const atLimit = quota !== null && quota.currentDomains >= quota.maxDomains;
  const needle = search.trim().toLowerCase();
  const shown = needle ? domains.filter((d) => d.domain.includes(needle)) : domains;
  const tier = quota?.tier ?? auth.userProfile?.tier ?? 'free';
  const email = auth.userProfile?.email ?? auth.user?.email ?? null;

  return (
    <section aria-labelledby="domains-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="domains-heading" className="text-2xl font-bold text-ink">
            Domain Management
          </h1>
          <p className="mt-1 text-slate-600">
            The domains DangleWatch watches for you, with their last scan.
          </p>
          <div className="mt-2">
            <HealthIndicator health={health} />
          </div>
        </div>
        {mayWrite && (
          <button
            type="button"
            className={BUTTON.primary}
            onClick={() => setAdding(true)}
            disabled={atLimit || serviceDown}
          >
            Add Domain
          </button>
        )}
      </div>

      <HealthBanner health={health} />
      <ProofsOffNotice health={health} />
      {quota && <PlanUsageCard quota={quota} stats={stats} />}
      {atLimit && quota && (
        <p
          role="status"
          className="mt-4 rounded-md border border-orange-300 bg-orange-50 p-3 text-sm text-orange-900"
        >
          {DOMAIN_MESSAGES.limit(quota.maxDomains)}. Remove a domain or{' '}
          <a className="underline" href="/dashboard?section=settings&tab=plan">
            change your plan
          </a>{' '}
          to add another.
        </p>
      )}
      {error && <LoadError message={error} onRetry={() => void loadDomains(dashboardApi().domains)} />}

      {domains.length > 0 && (
        <div className="mt-6 sm:w-72">
          <label htmlFor="domain-search" className="sr-only">
            Search domains
          </label>
          <input
            id="domain-search"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search domains..."
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
      )}

      {loading ? (
        <Spinner label="Loading domains" />
      ) : error && loadedAt === null ? null : domains.length === 0 ? (
        <EmptyState title="Ready to secure your domains?">
          <p>
            {serviceDown
              ? 'The scanning service is down right now; you can add your first domain as soon as it is back.'
              : health.status === 'degraded'
                ? 'Add a domain and prove you own it; scans may take longer than usual while the service is degraded.'
                : 'Add a domain, prove you own it with a DNS TXT record, and DangleWatch scans it every day.'}
          </p>
          {webmailOnFree ? (
            <div className="mt-4">
              <FreeRuleNotice screen="domains" />
            </div>
          ) : mayWrite ? (
            <button
              type="button"
              className={`${BUTTON.primary} mt-4`}
              onClick={() => setAdding(true)}
              disabled={serviceDown}
            >
              Add Your First Domain
            </button>
          ) : (
            <p className="mt-4">{READ_ONLY_HINT}</p>
          )}
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState title="No matching domains">
          <p>No domain matches “{search.trim()}”.</p>
          <button type="button" className={`${BUTTON.secondary} mt-4`} onClick={() => setSearch('')}>
            Clear Search
          </button>
        </EmptyState>
      ) : (
        <ul className="mt-4 space-y-3" aria-label="Domains">
          {shown.map((domain) => (
            <DomainCard
              key={domain.id}
              domain={domain}
              serviceDown={serviceDown}
              now={now}
              onRemove={setRemoving}
            />
          ))}
        </ul>
      )}

      {adding && (
        <AddDomainModal
          quota={quota}
          tier={tier}
          email={email}
          monitored={domains.map((d) => d.domain)}
          serviceDown={serviceDown}
          onClose={() => setAdding(false)}
        />
      )}
      {removing && <RemoveDomainDialog domain={removing} onClose={() => setRemoving(null)} />}
    </section>
  );
}
