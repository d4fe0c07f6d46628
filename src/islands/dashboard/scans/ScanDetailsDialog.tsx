import { useEffect, useState } from 'react';
import { byRisk } from '../../../lib/dashboard/findings.ts';
import { formatDateTime, formatDuration, isScanActive, shortId } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import type { FindingRecord, ScanView } from '../../../model/contract.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { ScanStatusBadge } from '../shared/ScanStatusBadge.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { FindingCard } from './FindingCard.tsx';
import { FindingHistory } from './FindingHistory.tsx';
import { HowWeDecide } from './HowWeDecide.tsx';
import { ScanErrors } from './ScanErrors.tsx';
import { ScanProgressBar } from './ScanProgressBar.tsx';
import { useLiveScan } from './use-live-scan.ts';

interface ScanDetailsDialogProps {
  scan: ScanView;
  onClose: () => void;
}

/** 'View Details': one scan read in full, every finding with its status, evidence chain, proof and fix. */
export function ScanDetailsDialog({ scan: initial, onClose }: ScanDetailsDialogProps) {
  const [scan, setScan] = useState<ScanView>(initial);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<FindingRecord[]>([]);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [historyAttempt, setHistoryAttempt] = useState(0);
  useLiveScan(scan, setScan);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Try Again) is the signal to read again
  useEffect(() => {
    let live = true;
    // The history is extra: without it the findings still show, with an alert that offers to ask again.
    setHistoryError(null);
    dashboardApi()
      .findings.list(initial.domain)
      .then(({ findings }) => live && setHistory(findings))
      .catch((cause) => {
        if (!live) return;
        const reason = cause instanceof Error ? cause.message : 'no answer';
        setHistoryError(`The findings' history could not be loaded: ${reason}`);
      });
    return () => {
      live = false;
    };
  }, [initial.domain, historyAttempt]);
  const recordOf = (f: ScanView['findings'][number]) =>
    history.find(
      (r) =>
        r.finding.subdomain === f.subdomain &&
        r.finding.recordType === f.recordType &&
        r.finding.target === f.target,
    );
  const replace = (record: FindingRecord) =>
    setHistory((all) => all.map((r) => (r.id === record.id ? record : r)));

  useEffect(() => {
    let live = true;
    dashboardApi()
      .scans.get(initial.scan_id)
      .then((full) => {
        if (!live) return;
        setScan(full);
        setLoaded(true);
      })
      .catch((cause) => {
        if (!live) return;
        setError(cause instanceof Error ? cause.message : 'The scan could not be read.');
        setLoaded(true);
      });
    return () => {
      live = false;
    };
  }, [initial.scan_id]);

  const config = scan.scan_config;
  return (
    <Dialog
      title={`Scan details: ${scan.domain}`}
      description={`Scan ${shortId(scan.scan_id)}, started ${formatDateTime(scan.started_at ?? scan.created_at)}`}
      onClose={onClose}
      wide
      aside={<ScanStatusBadge status={scan.status} />}
    >
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <Figure label="Subdomains checked" value={scan.subdomains_scanned} />
        <Figure label="Findings" value={scan.vulnerabilities_found} />
        <Figure label="Critical" value={scan.critical_count} />
        <Figure label="Filtered FP" value={scan.false_positives_filtered} />
        <Figure label="Duration" value={formatDuration(scan.duration_seconds)} />
        <Figure label="Completed" value={formatDateTime(scan.completed_at, '—')} />
        <Figure label="Discovery" value={config.skipDiscovery ? 'Direct' : 'On'} />
        <Figure
          label="CT / Validation"
          value={`${config.useCertificateTransparency ? 'On' : 'Off'} / ${config.useMultiStageValidation ? 'On' : 'Off'}`}
        />
      </dl>
      {isScanActive(scan.status) && (
        <div className="mt-4 rounded-md bg-blue-50 p-3">
          <p className="text-sm font-medium text-blue-900">Scanning for dangling subdomains...</p>
          <ScanProgressBar progress={scan.progress} />
        </div>
      )}
      {scan.error && (
        <p className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {scan.error}
        </p>
      )}
      <HowWeDecide scan={scan} />
      {error && <p className="mt-4 text-sm text-red-800">{error}</p>}
      {historyError && <LoadError message={historyError} onRetry={() => setHistoryAttempt((n) => n + 1)} />}
      <h3 className="mt-6 text-base font-semibold text-ink">Findings</h3>
      {!loaded ? (
        <Spinner label="Loading findings" />
      ) : scan.findings.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          {scan.status === 'completed'
            ? `No dangling records found among the ${scan.subdomains_scanned} names checked.`
            : 'No findings yet.'}
        </p>
      ) : (
        <div className="mt-2 space-y-3">
          {byRisk(scan.findings).map((finding) => {
            const record = recordOf(finding);
            return (
              <div key={`${finding.subdomain} ${finding.target}`} data-testid="finding-item">
                <FindingCard finding={finding} headingLevel="h4" />
                {record && <FindingHistory record={record} onChange={replace} />}
              </div>
            );
          })}
        </div>
      )}
      <ScanErrors errors={scan.errors ?? []} checked={scan.subdomains ?? []} />
    </Dialog>
  );
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="font-semibold text-ink">{value}</dd>
    </div>
  );
}
