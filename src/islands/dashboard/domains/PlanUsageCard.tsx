import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { sharedAllowanceLine } from '../../../lib/dashboard/messages.ts';
import type { QuotaView, ScanStats } from '../../../model/contract.ts';
import { getPlan, PLANS, type PlanId } from '../../../model/plans.ts';

function planName(tier: string): string {
  const id = (tier === 'pro' ? 'pro-solo' : tier) as PlanId;
  return PLANS.some((p) => p.id === id) ? getPlan(id).name : tier;
}

/** Usage turns orange above 80% of a cap. */
const WARN_ABOVE = 0.8;

function UsageRow({ label, used, max }: { label: string; used: number; max: number | null }) {
  const share = max === null || max === 0 ? 0 : used / max;
  const warn = share > WARN_ABOVE;
  return (
    <div>
      <div className="flex justify-between text-sm">
        <span className="text-slate-700">{label}</span>
        <span className={`font-semibold ${warn ? 'text-orange-700' : 'text-ink'}`}>
          {used} / {max === null ? 'Unlimited' : max}
        </span>
      </div>
      {max !== null && (
        <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
          <div
            className={`h-full ${warn ? 'bg-orange-500' : 'bg-brand-600'}`}
            style={{ width: `${Math.min(100, Math.round(share * 100))}%` }}
          />
        </div>
      )}
    </div>
  );
}

/** The plan-usage card: domains, today's scans and this month's scans of the plan, from the server's quota. */
export function PlanUsageCard({ quota, stats }: { quota: QuotaView; stats: ScanStats | null }) {
  return (
    <section
      aria-labelledby="plan-usage-heading"
      className="mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="plan-usage"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="plan-usage-heading" className="font-semibold text-ink">
          {planName(quota.tier)} plan usage
        </h2>
        <a href="/dashboard?section=settings&tab=plan" className="text-sm text-brand-700 underline">
          Plans
        </a>
      </div>
      {quota.sharedWith.length > 0 && (
        <p className="mt-1 text-xs text-slate-700" data-testid="quota-shared">
          {sharedAllowanceLine(quota.sharedWith, planName(quota.tier))}
        </p>
      )}
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        <UsageRow label="Domains" used={quota.currentDomains} max={quota.maxDomains} />
        <UsageRow label="Scans today" used={quota.scansUsedToday} max={quota.maxScansPerDay} />
        <UsageRow label="Scans this month" used={quota.scansUsedThisMonth} max={quota.maxScansPerMonth} />
      </div>
      {stats && (
        <dl
          className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-xs text-slate-700"
          data-testid="monthly-usage"
        >
          <div className="flex gap-1">
            <dt>Subdomains scanned this month</dt>
            <dd className="font-semibold text-ink">{stats.subdomains_scanned_this_month}</dd>
          </div>
          <div className="flex gap-1">
            <dt>CT lookups</dt>
            <dd className="font-semibold text-ink">{stats.ct_lookups_this_month}</dd>
          </div>
          <div className="flex gap-1">
            <dt>Validation checks</dt>
            <dd className="font-semibold text-ink">{stats.validation_checks_this_month}</dd>
          </div>
        </dl>
      )}
      <p className="mt-2 text-xs text-slate-600">Monthly usage resets {formatDateTime(quota.resetDate)}.</p>
    </section>
  );
}
