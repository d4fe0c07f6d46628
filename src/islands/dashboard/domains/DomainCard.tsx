import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { keepDomain, startScan, verifyDomain } from '../../../lib/dashboard/actions.ts';
import { proofLabel } from '../../../lib/dashboard/dns-providers.ts';
import { dataAgeBadge, formatDateTime, formatDuration, isScanActive } from '../../../lib/dashboard/format.ts';
import { provenParentOf } from '../../../lib/dashboard/proven-parent.ts';
import { startOptions } from '../../../lib/dashboard/scan-options.ts';
import { $domains } from '../../../lib/dashboard/store.ts';
import type { DomainView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { useCan } from '../shared/use-can.ts';
import { DomainInventory } from './DomainInventory.tsx';
import { DomainMenu } from './DomainMenu.tsx';
import { DomainStatusBadge } from './DomainStatusBadge.tsx';
import { DomainTrend } from './DomainTrend.tsx';
import { FailedVerification } from './FailedVerification.tsx';
import { PendingVerification } from './PendingVerification.tsx';
import { ScanSettingsDialog } from './ScanSettingsDialog.tsx';
import { ScanStatusPanel } from './ScanStatusPanel.tsx';

interface DomainCardProps {
  domain: DomainView;
  /** The scanning service is down: verify and rescan wait. */
  serviceDown: boolean;
  now: number;
  onRemove: (domain: DomainView) => void;
}

/** One monitored domain: status, dates, its last scan, and what to do next. */
export function DomainCard({ domain, serviceDown, now, onRemove }: DomainCardProps) {
  const { domains } = useStore($domains);
  const [verifying, setVerifying] = useState(false);
  const [serviceError, setServiceError] = useState<string | null>(null);
  // A check that could not reach DNS leaves the domain pending; its reason still shows.
  const [pendingError, setPendingError] = useState<string | null>(null);
  const [triggering, setTriggering] = useState(false);
  const [keeping, setKeeping] = useState(false);
  const mayWrite = useCan('domains.write');
  const mayScan = useCan('scans.start');
  const [showTrend, setShowTrend] = useState(false);
  const [editing, setEditing] = useState(false);
  // A rescan that fails to start shows the scan as failed to start, on the card.
  const [startError, setStartError] = useState<{ title?: string; message: string } | null>(null);
  const scanning = triggering || isScanActive(domain.scanStatus);
  const age = domain.lastScanAt ? dataAgeBadge(domain.lastScanAt, now) : null;

  const verify = async () => {
    setVerifying(true);
    const outcome = await verifyDomain(domain.id);
    setServiceError(outcome.serviceError);
    setPendingError(outcome.serviceError ?? outcome.error);
    setVerifying(false);
  };
  const rescan = async () => {
    setTriggering(true);
    setStartError(null);
    const outcome = await startScan(domain.domain, startOptions(domain.scanConfig));
    if (!outcome.started && outcome.error) setStartError({ title: outcome.title, message: outcome.error });
    setTriggering(false);
  };

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="domain-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <DomainStatusBadge status={domain.status} />
            <h3 className="font-semibold break-all text-ink">{domain.domain}</h3>
            {domain.vulnerabilitiesCount > 0 && (
              <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
                {domain.vulnerabilitiesCount} {domain.vulnerabilitiesCount === 1 ? 'issue' : 'issues'}
              </span>
            )}
            {age && (
              <span
                className={`rounded px-2 py-0.5 text-xs ${age.stale ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-700'}`}
                data-testid="data-age"
              >
                {age.label}
              </span>
            )}
          </div>
          <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-xs text-slate-600">
            <div className="flex gap-1">
              <dt>Added</dt>
              <dd className="text-slate-800">{formatDateTime(domain.addedAt)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Last Scan</dt>
              <dd className="text-slate-800">
                {formatDateTime(domain.lastScanAt)}
                {domain.lastScanAt &&
                  domain.durationSeconds !== null &&
                  ` (${formatDuration(domain.durationSeconds)})`}
              </dd>
            </div>
            {domain.proof && (
              <div className="flex gap-1">
                <dt>Ownership</dt>
                <dd className="text-slate-800" data-testid="ownership-proof">
                  {proofLabel(domain.proof, domain.inventory?.source, provenParentOf(domain.domain, domains))}
                </dd>
              </div>
            )}
            <div className="flex gap-1">
              <dt>Next Scan</dt>
              <dd className="text-slate-800">
                {domain.isActive
                  ? formatDateTime(
                      domain.nextScanAt,
                      domain.scanConfig.scanFrequency === 'manual' ? 'Manual only' : 'Not scheduled',
                    )
                  : 'Paused'}
              </dd>
            </div>
          </dl>
        </div>
        {domain.status === 'verified' && (
          <div className="flex items-center gap-2">
            {mayScan && (
              <button
                type="button"
                className={BUTTON.small}
                onClick={rescan}
                disabled={scanning || serviceDown}
              >
                {serviceDown ? 'Unavailable' : scanning ? 'Scanning...' : 'Rescan'}
              </button>
            )}
            <DomainMenu
              domain={domain.domain}
              canRescan={!serviceDown && !triggering}
              onForceRescan={rescan}
              onSettings={() => setEditing(true)}
              onRemove={() => onRemove(domain)}
            />
          </div>
        )}
        {domain.status !== 'verified' && mayWrite && (
          <button type="button" className={BUTTON.small} onClick={() => onRemove(domain)}>
            Remove
          </button>
        )}
      </div>

      {!domain.isActive && domain.pausedReason && (
        <p
          role="note"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
        >
          <span className="font-semibold">Monitoring paused: </span>
          {domain.pausedReason}
          {domain.overPlanLimit && mayWrite && (
            <button
              type="button"
              className={`${BUTTON.small} ml-2`}
              disabled={keeping}
              onClick={async () => {
                setKeeping(true);
                await keepDomain(domain.id);
                setKeeping(false);
              }}
            >
              Keep this domain
            </button>
          )}
        </p>
      )}
      {domain.status === 'pending' && (
        <PendingVerification
          domain={domain}
          error={pendingError}
          verifying={verifying}
          disabled={serviceDown}
          onVerify={mayWrite ? verify : undefined}
        />
      )}
      {domain.status === 'failed' && (
        <FailedVerification
          domain={domain}
          serviceError={serviceError}
          verifying={verifying}
          disabled={serviceDown}
          onVerify={mayWrite ? verify : undefined}
        />
      )}
      {domain.status === 'verified' && <ScanStatusPanel domain={domain} startError={startError} />}
      {domain.status === 'verified' && (
        <DomainInventory
          domainId={domain.id}
          domainName={domain.domain}
          inventory={domain.inventory}
          now={now}
        />
      )}
      {domain.status === 'verified' && (
        <div className="mt-2">
          <button
            type="button"
            className="text-sm font-medium text-brand-700 underline"
            aria-expanded={showTrend}
            onClick={() => setShowTrend(!showTrend)}
          >
            {showTrend ? 'Hide trend' : 'Show trend'}
          </button>
          {showTrend && <DomainTrend domainId={domain.id} domainName={domain.domain} />}
        </div>
      )}
      {editing && <ScanSettingsDialog domain={domain} onClose={() => setEditing(false)} />}
    </li>
  );
}
