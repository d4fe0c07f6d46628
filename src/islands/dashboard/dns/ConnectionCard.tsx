import { useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { dnsProvider } from '../../../lib/dashboard/dns-providers.ts';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import type { ConnectionView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { ZonePicker } from './ZonePicker.tsx';

interface ConnectionCardProps {
  connection: ConnectionView;
  disabled: boolean;
  /** Its queued read has not shown yet. */
  reading: boolean;
  /** Something changed on the server: read the list again. */
  onChanged: () => void;
  /** A read of the zones was queued: follow it until it shows. */
  onSyncQueued: (connection: ConnectionView) => void;
  onRemove: (connection: ConnectionView) => void;
}

/** One DNS provider connection: what it is, how its reads go, its zones, 'Sync now' and 'Remove'. */
export function ConnectionCard({
  connection,
  disabled,
  reading,
  onChanged,
  onSyncQueued,
  onRemove,
}: ConnectionCardProps) {
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const provider = dnsProvider(connection.provider);

  const sync = async () => {
    setSyncing(true);
    setError(null);
    try {
      await dashboardApi().dnsConnections.sync(connection.id);
      toast({
        title: 'Sync Queued',
        description: `${connection.label}: its zones are read again now; changed records are scanned at once.`,
      });
      onSyncQueued(connection);
    } catch (cause) {
      setError(failureMessage(cause, 'The sync could not be queued.'));
    } finally {
      setSyncing(false);
    }
  };

  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid="dns-connection">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-ink">{connection.label}</h3>
          <p className="mt-1 text-xs text-slate-600">
            {provider.label} · credential <code>…{connection.credentialHint}</code> · added by{' '}
            {connection.createdBy ?? 'you'} on {formatDateTime(connection.createdAt)}
          </p>
          <p className="mt-1 text-xs text-slate-600" data-testid="dns-last-read">
            Last read: {formatDateTime(connection.lastSyncAt, 'not read yet')}
            {reading && ' · reading the zones now...'}
          </p>
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            className={BUTTON.small}
            disabled={disabled || syncing || reading}
            onClick={sync}
          >
            {syncing ? 'Queuing...' : 'Sync now'}
          </button>
          <button
            type="button"
            className={BUTTON.small}
            aria-label={`Remove ${connection.label}`}
            onClick={() => onRemove(connection)}
          >
            Remove
          </button>
        </div>
      </div>
      {connection.syncError && (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="dns-sync-error"
        >
          <span className="font-semibold">
            Sync failing since {formatDateTime(connection.syncFailingSince, 'the last read')}:
          </span>{' '}
          {connection.syncError}
        </p>
      )}
      {error && (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <div className="mt-3">
        <ZonePicker connection={connection} disabled={disabled} onMonitored={onChanged} />
      </div>
    </li>
  );
}
