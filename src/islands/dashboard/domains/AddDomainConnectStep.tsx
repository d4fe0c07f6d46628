import { useState } from 'react';
import type { ConnectionView, DomainView } from '../../../lib/dashboard/contract.ts';
import { ConnectDnsForm } from '../dns/ConnectDnsForm.tsx';
import { ZonePicker } from '../dns/ZonePicker.tsx';

interface AddDomainConnectStepProps {
  disabled: boolean;
  onMonitored: (domain: DomainView) => void;
}

/**
 * The other way to prove ownership: connect the DNS provider with a read-only credential, then pick
 * a zone it reads. The zone becomes a verified domain at once, with no TXT record.
 */
export function AddDomainConnectStep({ disabled, onMonitored }: AddDomainConnectStepProps) {
  const [connection, setConnection] = useState<ConnectionView | null>(null);
  if (!connection) return <ConnectDnsForm onConnected={setConnection} />;
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-700">
        {connection.label} reads these zones. Monitor one: it is verified at once and its first scan checks
        every record. Settings → DNS keeps this connection.
      </p>
      <ZonePicker
        connection={connection}
        disabled={disabled}
        onMonitored={(zone, domain) => {
          setConnection({
            ...connection,
            zones: connection.zones.map((z) => (z.zone === zone ? { zone, domainId: domain.id } : z)),
          });
          onMonitored(domain);
        }}
      />
    </div>
  );
}
