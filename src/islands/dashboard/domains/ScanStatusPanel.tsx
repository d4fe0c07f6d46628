import { domainScanStatusLabel, formatDateTime, shortId } from '../../../lib/dashboard/format.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import type { DomainView } from '../../../model/contract.ts';
import { ScanStatusBadge } from '../shared/ScanStatusBadge.tsx';

function OnOff({ label, on }: { label: string; on: boolean }) {
  return (
    <span
      className={`rounded px-2 py-0.5 text-xs font-medium ${on ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
    >
      {label} {on ? 'On' : 'Off'}
    </span>
  );
}

/** The open findings by status, as they stand: the badge's number, split. */
const OPEN_FIGURES = [
  ['claimable', 'Claimable'],
  ['likely', 'Likely'],
  ['review', 'Review'],
  ['accepted', 'Accepted'],
] as const;

/**
 * The domain card's scan panel: the latest full scan's status, figures and id, the open findings
 * by status as they stand (the badge's number, split: the same reckoning as the trend's latest
 * point), a later change scan beside the full one as such, the options and the error.
 */
export function ScanStatusPanel({
  domain,
  startError,
}: {
  domain: DomainView;
  /** Why the last start did not run; `title` when the server refused it on purpose. */
  startError: { title?: string; message: string } | null;
}) {
  const config = domain.scanConfig;
  // A change scan checks only the names that changed: the whole domain's figures are its full scan's.
  const full = domain.fullScan;
  const shown = full
    ? {
        id: full.id,
        status: full.status,
        subdomains: full.subdomainsScanned,
        filtered: full.falsePositivesFiltered,
      }
    : {
        id: domain.lastScanId,
        status: domain.scanStatus,
        subdomains: domain.subdomainsScanned,
        filtered: domain.falsePositivesFiltered,
      };
  const open = domain.openFindings;
  return (
    <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="scan-panel">
      <div className="flex flex-wrap items-center gap-2">
        {shown.status ? (
          <ScanStatusBadge status={shown.status} label={domainScanStatusLabel(shown.status)} />
        ) : (
          <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">
            Not scanned
          </span>
        )}
        {full && <span className="text-xs text-slate-700">Full scan of {formatDateTime(full.at)}</span>}
        <OnOff label="CT" on={config.useCertificateTransparency} />
        <OnOff label="Validation" on={config.useMultiStageValidation} />
        {config.skipDiscovery && (
          <span className="rounded bg-blue-100 px-2 py-0.5 text-xs font-medium text-blue-800">Direct</span>
        )}
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
        <div>
          <dt className="text-xs text-slate-600">Subdomains</dt>
          <dd className="font-semibold text-ink">{shown.subdomains ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Filtered FP</dt>
          <dd className="font-semibold text-ink">{shown.filtered ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Scan ID</dt>
          <dd className="font-mono text-ink" title={shown.id ?? undefined}>
            {shown.id ? shortId(shown.id) : '—'}
          </dd>
        </div>
      </dl>
      <div className="mt-2" data-testid="open-counts">
        <p className="text-xs text-slate-600">Open findings now</p>
        <dl className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {OPEN_FIGURES.map(([key, label]) => (
            <div key={key}>
              <dt className="text-xs text-slate-600">{label}</dt>
              <dd
                className={`font-semibold ${key === 'claimable' && open.claimable > 0 ? 'text-red-700' : 'text-ink'}`}
              >
                {open[key]}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      {full && (
        <p className="mt-2 text-xs text-slate-700" data-testid="change-scan">
          <span className="font-semibold">Change scan</span> (the records that changed){' '}
          {domain.scanStatus === 'completed'
            ? `of ${formatDateTime(domain.lastScanAt)}: ${domain.subdomainsScanned ?? 0} ${domain.subdomainsScanned === 1 ? 'name' : 'names'} checked`
            : `${domainScanStatusLabel(domain.scanStatus).toLowerCase()}`}
          {domain.lastScanId && <span className="font-mono"> · {shortId(domain.lastScanId)}</span>}
        </p>
      )}
      {startError && (
        <div role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 p-2 text-red-800">
          <p className="font-semibold">{startError.title ?? DASHBOARD_MESSAGES.scanStartFailed}</p>
          <p>{startError.message}</p>
        </div>
      )}
      {domain.error && domain.status === 'verified' && (
        <p className="mt-2 rounded-md border border-red-200 bg-red-50 p-2 text-red-800">{domain.error}</p>
      )}
    </div>
  );
}
