import { inventorySourceLabel } from '../../../lib/dashboard/dns-providers.ts';
import { DNS_PROPAGATION_NOTE } from '../../../model/constants.ts';
import type { DomainView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { TxtRecordDetails } from './TxtRecordDetails.tsx';

interface PendingVerificationProps {
  domain: DomainView;
  /** Why the last check did not verify it, when the domain stayed pending. */
  error: string | null;
  verifying: boolean;
  disabled: boolean;
  /** Absent for a role that may not verify: the button is not shown. */
  onVerify?: () => void;
}

/**
 * A pending domain's box: the TXT record to publish, the propagation note, 'Verify DNS'; for a domain
 * linked to a connected zone, why the zone is not proof of ownership yet.
 */
export function PendingVerification({
  domain,
  error,
  verifying,
  disabled,
  onVerify,
}: PendingVerificationProps) {
  const source = domain.inventory?.source;
  const linked = source !== undefined && source !== 'zone-file';
  return (
    <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-semibold text-amber-900">DNS Verification Required</p>
      <p className="mt-1 text-amber-900">
        Publish this TXT record at <span className="font-mono">{domain.domain}</span> to prove you own it.
      </p>
      <div className="mt-2">
        <TxtRecordDetails domain={domain} />
      </div>
      <p className="mt-2 text-xs text-amber-900">{DNS_PROPAGATION_NOTE}</p>
      {linked && (
        <p className="mt-2 text-amber-900" data-testid="zone-not-proof">
          <span className="font-semibold">
            Linked to your {inventorySourceLabel(source)} zone, not yet proof of ownership.
          </span>{' '}
          {domain.error ??
            'The zone proves the domain once public DNS delegates it to the name servers the provider assigned.'}
        </p>
      )}
      {error && error !== domain.error && (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      )}
      {onVerify && (
        <button
          type="button"
          className={`${BUTTON.primary} mt-3`}
          onClick={onVerify}
          disabled={verifying || disabled}
        >
          {verifying ? 'Checking...' : 'Verify DNS'}
        </button>
      )}
    </div>
  );
}
