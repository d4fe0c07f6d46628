import { dnsProvider } from '../../../lib/dashboard/dns-providers.ts';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import type { ConnectionView } from '../../../model/contract.ts';
import {
  CardError,
  ConnectionCard,
  RemoveButton,
  SyncButton,
  type SyncedCardProps,
  useCardAction,
} from '../shared/ConnectionCard.tsx';
import { ZonePicker } from './ZonePicker.tsx';

interface DnsConnectionCardProps extends SyncedCardProps<ConnectionView> {
  connection: ConnectionView;
}

/** One DNS provider connection on the shared card: how its reads go, its zones, 'Sync now' and 'Remove'. */
export function DnsConnectionCard({
  connection,
  disabled,
  reading,
  onChanged,
  onSyncQueued,
  onRemove,
}: DnsConnectionCardProps) {
  const { busy: syncing, error, detail, run } = useCardAction();
  const provider = dnsProvider(connection.provider);
  const api = dashboardApi().dnsConnections;

  const enable = () =>
    run(async () => {
      await api.enable(connection.id);
      toast({ title: 'Connection Re-enabled', description: `${connection.label}: you answer for it now.` });
      onChanged();
    }, 'The connection could not be re-enabled.');
  const sync = () =>
    run(async () => {
      await api.sync(connection.id);
      toast({
        title: 'Sync Queued',
        description: `${connection.label}: its zones are read again now; changed records are scanned at once.`,
      });
      onSyncQueued(connection);
    }, 'The sync could not be queued.');

  return (
    <ConnectionCard
      testId="dns-connection"
      title={connection.label}
      meta={{
        what: provider.label,
        credentialHint: connection.credentialHint,
        added: `added by ${connection.createdBy ?? 'you'} on ${formatDateTime(connection.createdAt)}`,
      }}
      last={
        <>
          Last read: {formatDateTime(connection.lastSyncAt, 'not read yet')}
          {reading && ' · reading the zones now...'}
        </>
      }
      lastTestId="dns-last-read"
      failure={
        connection.syncError
          ? {
              title: `Sync failing since ${formatDateTime(connection.syncFailingSince, 'the last read')}:`,
              words: connection.syncError,
              detail: connection.syncErrorDetail,
              testId: 'dns-sync-error',
            }
          : null
      }
      connection={connection}
      onEnable={enable}
      readOnly={disabled}
      actions={
        <>
          <SyncButton
            off={disabled || reading || connection.disabled !== null}
            queuing={syncing}
            onClick={sync}
          />
          <RemoveButton label={connection.label} onClick={() => onRemove(connection)} />
        </>
      }
    >
      <CardError error={error} detail={detail} />
      <div className="mt-3">
        <ZonePicker
          connection={connection}
          disabled={disabled || connection.disabled !== null}
          onMonitored={onChanged}
        />
      </div>
    </ConnectionCard>
  );
}
