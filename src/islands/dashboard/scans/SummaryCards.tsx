import type { ScanStats } from '../../../model/contract.ts';

/** The scans screen's summary: Total Scans, Success Rate %, Issues Found, Issues Resolved. */
export function SummaryCards({ stats }: { stats: ScanStats | null }) {
  const rate = stats?.success_rate;
  const cards = [
    { label: 'Total Scans', value: stats ? String(stats.total) : '—' },
    { label: 'Success Rate', value: rate === null || rate === undefined ? '—' : `${Math.round(rate)}%` },
    { label: 'Issues Found', value: stats ? String(stats.issues_found) : '—' },
    { label: 'Issues Resolved', value: stats ? String(stats.issues_resolved) : '—' },
  ];
  return (
    <dl className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="scan-summary">
      {cards.map((card) => (
        <div key={card.label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{card.label}</dt>
          <dd className="mt-1 text-2xl font-bold text-ink">{card.value}</dd>
        </div>
      ))}
    </dl>
  );
}
