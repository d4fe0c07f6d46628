import { useState } from 'react';
import { cancelScan, startScan } from '../../../lib/dashboard/actions.ts';
import { downloadReport } from '../../../lib/dashboard/download-report.ts';
import { byRisk, findingIdentity } from '../../../lib/dashboard/findings.ts';
import { formatDateTime, formatDuration, isScanActive, shortId } from '../../../lib/dashboard/format.ts';
import { startOptions } from '../../../lib/dashboard/scan-options.ts';
import type { ScanView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { ScanStatusBadge } from '../shared/ScanStatusBadge.tsx';
import { useCan } from '../shared/use-can.ts';
import { FindingSummary } from './FindingSummary.tsx';
import { ClockIcon, DownloadIcon } from './icons.tsx';
import { ScanProgressBar } from './ScanProgressBar.tsx';
import { useLiveScan } from './use-live-scan.ts';

interface ScanCardProps {
  scan: ScanView;
  onUpdate: (scan: ScanView) => void;
  onViewDetails: (scan: ScanView) => void;
  /** Identities of the findings accepted as risks now (findingIdentity). */
  accepted?: ReadonlySet<string>;
}

/** One scan: what was scanned, how it went, its findings, and what can be done next. */
export function ScanCard({ scan, onUpdate, onViewDetails, accepted }: ScanCardProps) {
  useLiveScan(scan, onUpdate);
  const [busy, setBusy] = useState<'rescan' | 'cancel' | 'download' | null>(null);
  const active = isScanActive(scan.status);
  const mayScan = useCan('scans.start');
  const canRescan =
    mayScan && (scan.status === 'completed' || scan.status === 'failed' || scan.status === 'cancelled');

  const rescan = async () => {
    setBusy('rescan');
    await startScan(scan.domain, startOptions(scan.scan_config));
    setBusy(null);
  };
  const cancel = async () => {
    setBusy('cancel');
    await cancelScan(scan.scan_id);
    setBusy(null);
  };
  const download = async (format: 'json' | 'sarif') => {
    setBusy('download');
    await downloadReport(scan, format);
    setBusy(null);
  };

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="scan-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            {scan.status === 'pending' && (
              <span className="text-slate-600">
                <ClockIcon />
              </span>
            )}
            <h3 className="font-semibold break-all text-ink">{scan.domain}</h3>
            <ScanStatusBadge status={scan.status} />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            <span className="font-mono" title={scan.scan_id}>
              {shortId(scan.scan_id)}
            </span>{' '}
            · Started {formatDateTime(scan.started_at ?? scan.created_at)} · Duration{' '}
            {formatDuration(scan.duration_seconds)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {scan.status === 'completed' && (
            <button
              type="button"
              className={BUTTON.small}
              onClick={() => download('json')}
              disabled={busy !== null}
              aria-label={`Download report for ${scan.domain}`}
            >
              <DownloadIcon />
              Download
            </button>
          )}
          {scan.status === 'completed' && (
            <button
              type="button"
              className={BUTTON.small}
              onClick={() => download('sarif')}
              disabled={busy !== null}
              aria-label={`Download SARIF for ${scan.domain}`}
            >
              SARIF
            </button>
          )}
          <button type="button" className={BUTTON.small} onClick={() => onViewDetails(scan)}>
            View Details
          </button>
          {canRescan && (
            <button type="button" className={BUTTON.small} onClick={rescan} disabled={busy !== null}>
              {busy === 'rescan' ? 'Starting...' : 'Re-scan'}
            </button>
          )}
          {active && (
            <>
              <button type="button" className={BUTTON.small} disabled>
                Running...
              </button>
              {mayScan && (
                <button type="button" className={BUTTON.small} onClick={cancel} disabled={busy !== null}>
                  {busy === 'cancel' ? 'Cancelling...' : 'Cancel'}
                </button>
              )}
            </>
          )}
        </div>
      </div>

      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt className="text-slate-600">Subdomains</dt>
          <dd className="font-semibold text-ink">{scan.subdomains_scanned}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-slate-600">Vulnerabilities</dt>
          <dd className={`font-semibold ${scan.vulnerabilities_found > 0 ? 'text-red-700' : 'text-ink'}`}>
            {scan.vulnerabilities_found}
          </dd>
        </div>
      </dl>
      {scan.partial && (
        <p className="mt-2 text-sm text-slate-700" data-testid="scan-partial">
          Partial scan of the zone's changed records: {scan.namesChecked}{' '}
          {scan.namesChecked === 1 ? 'name' : 'names'} checked. The domain's other open findings stay open.
        </p>
      )}

      {scan.status === 'running' && (
        <div className="mt-3 rounded-md bg-blue-50 p-3">
          <p className="text-sm font-medium text-blue-900">Scanning for dangling subdomains...</p>
          <ScanProgressBar progress={scan.progress} />
        </div>
      )}
      {scan.status === 'pending' && (
        <p className="mt-3 text-sm text-slate-600">Waiting for a worker to start this scan.</p>
      )}
      {(scan.status === 'failed' || scan.status === 'cancelled') && scan.error && (
        <p className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" role="note">
          {scan.error}
        </p>
      )}
      {scan.status === 'completed' &&
        (scan.findings.length === 0 ? (
          <p className="mt-3 text-sm text-green-800">No dangling subdomains found.</p>
        ) : (
          <ul className="mt-3 space-y-2" aria-label={`Findings for ${scan.domain}`}>
            {byRisk(scan.findings).map((finding) => (
              <FindingSummary
                key={`${finding.subdomain} ${finding.target}`}
                finding={finding}
                accepted={accepted?.has(findingIdentity(finding)) ?? false}
              />
            ))}
          </ul>
        ))}
    </li>
  );
}
