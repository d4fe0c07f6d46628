import { useState } from 'react';
import { DNS_PROVIDERS, dnsProvider } from '../../../lib/dashboard/dns-providers.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import type { ConnectionView, DnsProviderId } from '../../../model/contract.ts';
import { ConnectForm } from '../shared/ConnectForm.tsx';
import { ProviderGuide } from './ProviderGuide.tsx';

interface ConnectDnsFormProps {
  onConnected: (connection: ConnectionView) => void;
}

/**
 * Connects a DNS provider with a read-only credential: the provider, a label, the provider's
 * credential fields and its setup guide. The server checks the credential with a read call; a
 * refusal shows in plain words with the provider's own below, and nothing is stored.
 */
export function ConnectDnsForm({ onConnected }: ConnectDnsFormProps) {
  const [providerId, setProviderId] = useState<DnsProviderId>('cloudflare');
  const provider = dnsProvider(providerId);
  return (
    <ConnectForm
      name="Connect a DNS provider"
      testId="connect-dns-form"
      choiceLabel="Provider"
      choices={DNS_PROVIDERS}
      chosen={provider}
      onChoose={setProviderId}
      guide={<ProviderGuide provider={provider} />}
      fallbackError="The provider could not be connected."
      connect={async (credentials, label) => {
        const { connection } = await dashboardApi().dnsConnections.create(providerId, credentials, label);
        toast({
          title: 'DNS Provider Connected',
          description: `${connection.label} reads ${connection.zones.length} ${connection.zones.length === 1 ? 'zone' : 'zones'}.`,
        });
        onConnected(connection);
      }}
    />
  );
}
