import type { DomainStatus } from '../../../model/contract.ts';

const LOOK: Record<DomainStatus, { label: string; className: string; icon: string }> = {
  verified: { label: 'Verified', className: 'bg-green-100 text-green-800', icon: 'M5 10.5l3 3 7-7' },
  pending: { label: 'Pending', className: 'bg-amber-100 text-amber-900', icon: 'M10 5.5V10l3 2' },
  failed: { label: 'Failed', className: 'bg-red-100 text-red-800', icon: 'M6 6l8 8M14 6l-8 8' },
};

/** A domain's verification status: icon and badge. */
export function DomainStatusBadge({ status }: { status: DomainStatus }) {
  const look = LOOK[status];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${look.className}`}
      data-testid="domain-status"
    >
      <svg
        viewBox="0 0 20 20"
        width="12"
        height="12"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d={look.icon} />
      </svg>
      {look.label}
    </span>
  );
}
