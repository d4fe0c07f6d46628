import { FINDING_STATUS_TEXT } from '../../../lib/dashboard/findings.ts';
import { riskLabel } from '../../../lib/dashboard/format.ts';
import type { FindingView } from '../../../model/contract.ts';
import { noProofLine, proofLine } from '../../../model/proof.ts';
import { EvidenceChain } from './EvidenceChain.tsx';
import { FindingSources } from './FindingSources.tsx';

const STATUS_STYLE: Record<FindingView['status'], string> = {
  claimable: 'bg-red-100 text-red-800',
  likely: 'bg-amber-100 text-amber-900',
  review: 'bg-slate-100 text-slate-800',
};

const RISK_STYLE: Record<FindingView['risk'], string> = {
  high: 'bg-red-700 text-white',
  medium: 'bg-amber-600 text-white',
  low: 'bg-slate-600 text-white',
};

interface FindingCardProps {
  finding: FindingView;
  /** The heading level of the subdomain, to fit the page it sits in. */
  headingLevel?: 'h2' | 'h3' | 'h4';
}

/**
 * One finding explained: its status and what that means, the evidence chain, the explanation,
 * the proof of concept and the fix. Purely presentational: the dashboard renders it in its
 * details view, and the home page renders it to static HTML without any JavaScript.
 */
export function FindingCard({ finding, headingLevel: Heading = 'h3' }: FindingCardProps) {
  const status = FINDING_STATUS_TEXT[finding.status];
  return (
    <article
      className="rounded-lg border border-slate-200 bg-white p-4 text-left shadow-sm"
      data-testid="finding-card"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Heading className="font-mono text-sm font-semibold break-all text-ink">{finding.subdomain}</Heading>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[finding.status]}`}>
          {status.label}
        </span>
        <span className={`rounded px-2 py-0.5 text-xs font-bold ${RISK_STYLE[finding.risk]}`}>
          {riskLabel(finding.risk)}
        </span>
        <FindingSources sources={finding.sources} />
      </div>
      <p className="mt-2 text-sm text-slate-700">{status.sentence}</p>
      {/* Findings stored before proofs were kept have none to show, not even "not proven". */}
      {finding.proof !== undefined && (
        <p className="mt-2 text-sm font-medium text-ink" data-testid="finding-proof">
          {finding.proof ? proofLine(finding.proof, Date.now()) : noProofLine(finding.status)}
        </p>
      )}
      <div className="mt-3">
        <EvidenceChain finding={finding} />
      </div>
      <p className="mt-3 text-sm text-slate-800">{finding.explanation}</p>
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="font-semibold text-ink">Proof of concept</dt>
          <dd className="text-slate-700">{finding.proofOfConcept}</dd>
        </div>
        <div>
          <dt className="font-semibold text-ink">How to fix it</dt>
          <dd className="text-slate-700">{finding.remediation}</dd>
        </div>
      </dl>
      {finding.evidence.length > 0 && (
        <details className="mt-3 text-xs text-slate-700">
          <summary className="cursor-pointer font-medium text-slate-800">
            All evidence ({finding.evidence.length})
          </summary>
          <ul className="mt-1 list-inside list-disc space-y-1 font-mono break-all">
            {finding.evidence.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </details>
      )}
    </article>
  );
}
