import { useState } from 'react';
import { DNS_GUIDES, type DnsGuide } from '../../../lib/dashboard/dns-guides.ts';
import { DNS_PROPAGATION_NOTE } from '../../../model/constants.ts';
import type { DomainView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { DnsGuideDialog } from './DnsGuideDialog.tsx';
import { TxtRecordDetails } from './TxtRecordDetails.tsx';

interface AddDomainVerifyStepProps {
  domain: DomainView;
  /** Why the last 'Done, Start Monitoring' did not verify the domain. */
  error: string | null;
}

/** Step 3: the TXT record to publish, why, and how at the common DNS hosts. */
export function AddDomainVerifyStep({ domain, error }: AddDomainVerifyStepProps) {
  const [guide, setGuide] = useState<DnsGuide | null>(null);
  return (
    <div className="space-y-4 text-sm">
      <p className="text-slate-700">
        <span className="font-mono font-semibold">{domain.domain}</span> is added. Publish this TXT record at
        the domain's DNS host so DangleWatch can check that you own it:
      </p>
      <TxtRecordDetails domain={domain} />
      <p className="text-xs text-slate-600">{DNS_PROPAGATION_NOTE}</p>
      <div className="rounded-md border border-brand-100 bg-brand-50 p-3 text-slate-800">
        <p className="font-semibold text-ink">Why verification?</p>
        <p className="mt-1">
          Scanning probes every name under a domain. Proving you control its DNS keeps anyone from scanning a
          domain that is not theirs; the token is yours alone, and the record can stay in place for the daily
          re-checks.
        </p>
      </div>
      <div>
        <p className="font-medium text-ink">Quick setup guides</p>
        <div className="mt-2 flex flex-wrap gap-2">
          {DNS_GUIDES.map((g) => (
            <button key={g.id} type="button" className={BUTTON.small} onClick={() => setGuide(g)}>
              {g.title}
            </button>
          ))}
        </div>
      </div>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-800">
          {error}
        </p>
      )}
      {guide && (
        <DnsGuideDialog guide={guide} txtValue={domain.txtRecord.value} onClose={() => setGuide(null)} />
      )}
    </div>
  );
}
