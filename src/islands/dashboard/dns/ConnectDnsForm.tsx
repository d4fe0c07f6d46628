import { useId, useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { DNS_PROVIDERS, dnsProvider } from '../../../lib/dashboard/dns-providers.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import { CONNECTION_LABEL_MAX } from '../../../model/constants.ts';
import type { ConnectionView, DnsProviderId } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { useOnline } from '../shared/use-online.ts';
import { ProviderGuide } from './ProviderGuide.tsx';

interface ConnectDnsFormProps {
  onConnected: (connection: ConnectionView) => void;
}

const INPUT = 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2';

/**
 * Connects a DNS provider with a read-only credential: the provider, a label, the provider's
 * credential fields and its setup guide. The server checks the credential with a read call; a
 * refusal shows the provider's own words and nothing is stored.
 */
export function ConnectDnsForm({ onConnected }: ConnectDnsFormProps) {
  const [providerId, setProviderId] = useState<DnsProviderId>('cloudflare');
  const [label, setLabel] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const online = useOnline();
  const formId = useId();
  const provider = dnsProvider(providerId);

  const connect = async () => {
    if (!online) {
      setError(DASHBOARD_MESSAGES.offline);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const credentials = Object.fromEntries(provider.fields.map((f) => [f.key, values[f.key] ?? '']));
      const { connection } = await dashboardApi().dnsConnections.create(providerId, credentials, label);
      setValues({});
      setLabel('');
      toast({
        title: 'DNS Provider Connected',
        description: `${connection.label} reads ${connection.zones.length} ${connection.zones.length === 1 ? 'zone' : 'zones'}.`,
      });
      onConnected(connection);
    } catch (cause) {
      setError(failureMessage(cause, 'The provider could not be connected.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label="Connect a DNS provider"
      className="space-y-3 text-sm"
      data-testid="connect-dns-form"
      onSubmit={(event) => {
        event.preventDefault();
        void connect();
      }}
    >
      <label htmlFor={`${formId}-provider`} className="block">
        <span className="block font-medium text-ink">Provider</span>
        <select
          id={`${formId}-provider`}
          className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2"
          value={providerId}
          onChange={(event) => {
            setProviderId(event.target.value as DnsProviderId);
            setValues({});
            setError(null);
          }}
        >
          {DNS_PROVIDERS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <ProviderGuide provider={provider} />
      <label htmlFor={`${formId}-label`} className="block">
        <span className="block font-medium text-ink">Label (optional)</span>
        <input
          id={`${formId}-label`}
          type="text"
          maxLength={CONNECTION_LABEL_MAX}
          placeholder={`${provider.label} (production)`}
          className={INPUT}
          value={label}
          onChange={(event) => setLabel(event.target.value)}
        />
      </label>
      {provider.fields.map((field) => {
        const id = `${formId}-${field.key}`;
        const common = {
          id,
          required: true,
          autoComplete: 'off',
          spellCheck: false,
          placeholder: field.placeholder,
          className: INPUT,
          value: values[field.key] ?? '',
        };
        return (
          <label key={field.key} htmlFor={id} className="block">
            <span className="block font-medium text-ink">{field.label}</span>
            {field.input === 'textarea' ? (
              <textarea
                {...common}
                rows={6}
                className={`${INPUT} font-mono text-xs`}
                onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
              />
            ) : (
              <input
                {...common}
                type="password"
                onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
              />
            )}
          </label>
        );
      })}
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      <button type="submit" className={BUTTON.primary} disabled={busy || !online}>
        {busy ? 'Checking the credential...' : `Connect ${provider.label}`}
      </button>
    </form>
  );
}
