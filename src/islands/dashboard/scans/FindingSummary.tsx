import { riskLabel } from '../../../lib/dashboard/format.ts';
import type { FindingView } from '../../../model/contract.ts';
import { FindingSources } from './FindingSources.tsx';

/**
 * A finding on a scan card: subdomain, target, service, risk (or that the risk is accepted now),
 * proof of concept, fix.
 */
export function FindingSummary({ finding, accepted = false }: { finding: FindingView; accepted?: boolean }) {
  return (
    <li
      className={`rounded-md border p-3 text-sm ${accepted ? 'border-slate-200 bg-slate-50' : 'border-red-200 bg-red-50'}`}
      data-testid="finding-summary"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-mono font-semibold break-all text-ink">{finding.subdomain}</span>
          <FindingSources sources={finding.sources} />
        </span>
        {accepted ? (
          <span className="rounded bg-slate-600 px-2 py-0.5 text-xs font-bold text-white">ACCEPTED RISK</span>
        ) : (
          <span className="rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
            {riskLabel(finding.risk)}
          </span>
        )}
      </div>
      <p className="mt-1 text-slate-700">
        <span className="font-medium">{finding.recordType}</span>{' '}
        <span className="font-mono break-all">{finding.target}</span> · {finding.service}
      </p>
      <p className="mt-1 text-slate-700">
        <span className="font-medium text-ink">Proof of concept: </span>
        {finding.proofOfConcept}
      </p>
      <p className="mt-1 text-slate-700">
        <span className="font-medium text-ink">Fix: </span>
        {finding.remediation}
      </p>
    </li>
  );
}
