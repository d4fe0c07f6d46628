import { capitalise } from '../../../lib/dashboard/format.ts';
import type { ScanStatus } from '../../../model/contract.ts';

const STYLES: Record<ScanStatus, string> = {
  pending: 'bg-slate-100 text-slate-800',
  running: 'bg-blue-100 text-blue-800',
  completed: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
  cancelled: 'bg-amber-100 text-amber-900',
};

/** A scan's status as a coloured badge; `label` overrides the word (the domain card's 'Scanning...'). */
export function ScanStatusBadge({ status, label }: { status: ScanStatus; label?: string }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STYLES[status]}`}
      data-testid="scan-status"
    >
      {label ?? capitalise(status)}
    </span>
  );
}
