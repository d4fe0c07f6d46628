import type { DomainView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { TxtRecordDetails } from './TxtRecordDetails.tsx';

/** The 'Common solutions' shown under a failed verification of `domain`, whose host is exact. */
function commonSolutions(domain: DomainView): string[] {
  return [
    'Wait up to 24 hours for DNS changes to propagate',
    `Add the record at ${domain.domain} exactly (name ${domain.txtRecord.name}), not at another host`,
    'Check for typos in the token: copy the value with the Copy button',
    `Try a different DNS provider if yours does not serve TXT records at ${domain.domain}`,
  ];
}

interface FailedVerificationProps {
  domain: DomainView;
  /** Set when the verify call itself failed (the service, not the DNS record). */
  serviceError: string | null;
  verifying: boolean;
  disabled: boolean;
  /** Absent for a role that may not verify: the button is not shown. */
  onVerify?: () => void;
}

/** A failed domain's box: what went wrong, the record again, a retry, and the common solutions. */
export function FailedVerification({
  domain,
  serviceError,
  verifying,
  disabled,
  onVerify,
}: FailedVerificationProps) {
  const title = serviceError ? 'Service Error' : 'Verification Failed';
  return (
    <div className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm">
      <p className="font-semibold text-red-900">{title}</p>
      <p className="mt-1 text-red-900" data-testid="verification-error">
        {serviceError ?? domain.error ?? 'DNS verification failed - please check your DNS configuration'}
      </p>
      <div className="mt-2">
        <TxtRecordDetails domain={domain} />
      </div>
      {onVerify && (
        <button
          type="button"
          className={`${BUTTON.primary} mt-3`}
          onClick={onVerify}
          disabled={verifying || disabled}
        >
          {verifying ? 'Checking...' : serviceError ? 'Try Again' : 'Retry Verify'}
        </button>
      )}
      <div className="mt-3 text-red-900">
        <p className="font-semibold">Common solutions</p>
        <ul className="mt-1 list-inside list-disc">
          {commonSolutions(domain).map((solution) => (
            <li key={solution}>{solution}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
