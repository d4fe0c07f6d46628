import { evidenceChain } from '../../../lib/dashboard/findings.ts';
import type { FindingView } from '../../../model/contract.ts';

/**
 * The evidence chain as a small diagram: subdomain → record → target → service → what answered.
 * An ordered list, so a screen reader reads the steps in order; the arrows are decoration.
 */
export function EvidenceChain({ finding }: { finding: FindingView }) {
  const steps = evidenceChain(finding);
  return (
    <ol aria-label="Evidence chain" className="flex flex-col gap-1 sm:flex-row sm:flex-wrap sm:items-stretch">
      {steps.map((step, index) => (
        <li key={step.label} className="flex items-center gap-1 sm:max-w-[14rem]">
          <div
            className={`min-w-0 rounded-md border px-2 py-1 ${
              step.label === 'Answer' ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-slate-50'
            }`}
          >
            <p className="text-[0.65rem] font-semibold tracking-wide text-slate-600 uppercase">
              {step.label}
            </p>
            <p className="font-mono text-xs break-all text-ink">{step.value}</p>
          </div>
          {index < steps.length - 1 && (
            <span aria-hidden="true" className="px-0.5 text-slate-500">
              →
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}
