import { useEffect, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import type { ConnectionView, DomainView } from '../../../model/contract.ts';
import { ConnectDnsForm } from '../dns/ConnectDnsForm.tsx';
import { ZonePicker } from '../dns/ZonePicker.tsx';

interface AddDomainConnectStepProps {
  disabled: boolean;
  onMonitored: (domain: DomainView) => void;
}

/**
 * The other way to prove ownership: a zone that a connected DNS provider reads, and that public DNS
 * delegates to it, becomes a verified domain with no TXT record. Zones of connections made before
 * are offered first; a new read-only credential can be connected here too.
 */
export function AddDomainConnectStep({ disabled, onMonitored }: AddDomainConnectStepProps) {
  const [connections, setConnections] = useState<ConnectionView[]>([]);
  useEffect(() => {
    dashboardApi()
      .dnsConnections.list()
      .then((answer) => setConnections(answer.connections))
      // Without the list the form still connects a provider; Settings → DNS says what failed.
      .catch(() => setConnections([]));
  }, []);
  const open = connections.filter((c) => c.zones.some((z) => !z.domainId));

  return (
    <div className="space-y-4 text-sm">
      {open.map((connection) => (
        <div key={connection.id}>
          <h3 className="font-semibold text-ink">{connection.label}</h3>
          <ZonePicker
            connection={connection}
            disabled={disabled}
            onMonitored={(_zone, domain) => onMonitored(domain)}
          />
        </div>
      ))}
      <ConnectDnsForm onConnected={(connection) => setConnections([...connections, connection])} />
    </div>
  );
}
