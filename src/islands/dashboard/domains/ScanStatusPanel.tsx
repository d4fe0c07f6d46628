import { domainScanStatusLabel, shortId } from '../../../lib/dashboard/format.ts';
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

/** The domain card's scan panel: the last scan's status, its figures, its options, its error. */
export function ScanStatusPanel({
  domain,
  startError,
}: {
  domain: DomainView;
  /** Why the last start did not run; `title` when the server refused it on purpose. */
  startError: { title?: string; message: string } | null;
}) {
  const config = domain.scanConfig;
  return (
    <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="scan-panel">
      <div className="flex flex-wrap items-center gap-2">
        {domain.scanStatus ? (
          <ScanStatusBadge status={domain.scanStatus} label={domainScanStatusLabel(domain.scanStatus)} />
        ) : (
          <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">
            Not scanned
          </span>
        )}
        <OnOff label="CT" on={config.useCertificateTransparency} />
        <OnOff label="Validation" on={config.useMultiStageValidation} />
        {config.skipDiscovery && (
          <span className="rounded bg-blue-100 px-2 py-0.5 text-xs font-medium text-blue-800">Direct</span>
        )}
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-600">Subdomains</dt>
          <dd className="font-semibold text-ink">{domain.subdomainsScanned ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Critical</dt>
          <dd className={`font-semibold ${(domain.criticalCount ?? 0) > 0 ? 'text-red-700' : 'text-ink'}`}>
            {domain.criticalCount ?? '—'}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Filtered FP</dt>
          <dd className="font-semibold text-ink">{domain.falsePositivesFiltered ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Scan ID</dt>
          <dd className="font-mono text-ink" title={domain.lastScanId ?? undefined}>
            {domain.lastScanId ? shortId(domain.lastScanId) : '—'}
          </dd>
        </div>
      </dl>
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
