import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { toast } from '../../../lib/toast.ts';
import { SYNC_FOLLOW_MS, SYNC_POLL_MS } from '../../../model/constants.ts';
import type { ConnectionView } from '../../../model/contract.ts';
import { freeCoversNothing } from '../../../model/free-tier.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { signOutAndLeave } from '../../auth/ProtectedRoute.tsx';
import { ConnectDnsForm } from '../dns/ConnectDnsForm.tsx';
import { DnsConnectionCard } from '../dns/DnsConnectionCard.tsx';
import { WebmailNotice } from '../domains/WebmailNotice.tsx';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useOnline } from '../shared/use-online.ts';

/**
 * Settings → DNS: read-only connections to DNS providers. Each lists the zones its credential
 * reads; a zone monitored from here is linked to its domain, which it proves once public DNS
 * delegates the domain to it (then every record is scanned); the
 * failure e-mail of a connection links here (?tab=dns).
 */
export function DnsConnectionsPanel() {
  const [connections, setConnections] = useState<ConnectionView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ConnectionView | null>(null);
  // A connection whose sync was just queued, as it was then: the list is read until its read shows.
  const [syncing, setSyncing] = useState<ConnectionView | null>(null);
  const online = useOnline();
  const auth = useAuth();
  const workspace = useStore($currentWorkspace);
  const email = auth.userProfile?.email ?? auth.user?.email ?? null;
  // A zone is monitored as a domain, which Free refuses to a webmail account: no credential to take.
  const webmailOnFree = freeCoversNothing(workspace?.plan ?? auth.userProfile?.tier ?? 'free', email);

  const load = useCallback(async (): Promise<ConnectionView[] | null> => {
    setLoadError(null);
    try {
      const { connections: fresh } = await dashboardApi().dnsConnections.list();
      setConnections(fresh);
      return fresh;
    } catch (cause) {
      setLoadError(failureMessage(cause, 'The DNS connections could not be loaded.'));
      return null;
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (!syncing) return;
    const until = Date.now() + SYNC_FOLLOW_MS;
    const timer = setInterval(async () => {
      const now = (await load())?.find((c) => c.id === syncing.id);
      const read =
        !now ||
        now.lastSyncAt !== syncing.lastSyncAt ||
        now.syncError !== syncing.syncError ||
        now.syncFailingSince !== syncing.syncFailingSince;
      if (read || Date.now() > until) setSyncing(null);
    }, SYNC_POLL_MS);
    return () => clearInterval(timer);
  }, [syncing, load]);

  return (
    <div className="max-w-3xl space-y-6 text-sm" data-testid="dns-connections-panel">
      <div>
        <h2 className="text-lg font-semibold text-ink">DNS connections</h2>
        <p className="mt-1 text-slate-700">
          Scans see the names that certificate logs and the wordlist reveal; the records that dangle are often
          the forgotten ones. Connect your DNS provider with a read-only credential and every record of your
          zones is checked, again whenever it changes. A zone the credential reads also proves you own it: no
          TXT record needed, once public DNS delegates the domain to the provider's name servers.
        </p>
      </div>
      {!online && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {DASHBOARD_MESSAGES.offline}
        </p>
      )}
      {loadError && <LoadError message={loadError} onRetry={() => void load()} />}
      {!connections && !loadError && <Spinner label="Loading DNS connections" />}
      {connections &&
        (connections.length === 0 ? (
          <p className="text-slate-700" data-testid="dns-connections-empty">
            No DNS provider connected yet.
          </p>
        ) : (
          <ul className="space-y-3">
            {connections.map((connection) => (
              <DnsConnectionCard
                key={connection.id}
                connection={connection}
                disabled={!online}
                reading={syncing?.id === connection.id}
                onChanged={() => void load()}
                onSyncQueued={setSyncing}
                onRemove={setRemoving}
              />
            ))}
          </ul>
        ))}
      <div>
        <h3 className="font-semibold text-ink">Connect a DNS provider</h3>
        <div className="mt-2">
          {webmailOnFree ? (
            <WebmailNotice
              email={email}
              upgradeHref="/dashboard?section=settings&tab=plan"
              onSignInAgain={() => void signOutAndLeave(auth.signOut, '/login')}
            />
          ) : (
            <ConnectDnsForm onConnected={() => void load()} />
          )}
        </div>
      </div>
      {removing && (
        <ConfirmDialog
          title="Remove DNS Connection"
          question={`Remove ${removing.label}?`}
          confirmLabel="Remove Connection"
          busyLabel="Removing..."
          fallbackError="The connection could not be removed."
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await dashboardApi().dnsConnections.remove(removing.id);
            toast({
              title: 'DNS Connection Removed',
              description: `${removing.label}: its credential is deleted.`,
            });
            setRemoving(null);
            await load();
          }}
        >
          The credential is deleted from DangleWatch at once and its zones are no longer read. The domains it
          monitors stay, with their records and history; once a day has passed without a read, each needs its
          TXT record to prove ownership again.
        </ConfirmDialog>
      )}
    </div>
  );
}
