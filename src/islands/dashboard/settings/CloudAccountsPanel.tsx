import { useCallback, useEffect, useId, useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import {
  CLOUDS,
  type CloudInfo,
  cloudInfo,
  MAX_GRACE_HOURS,
  parseGraceHours,
  rightsCheckPolicyFor,
} from '../../../model/cloud-accounts.ts';
import { SYNC_FOLLOW_MS, SYNC_POLL_MS } from '../../../model/constants.ts';
import type { CloudAccountView, CloudInventoryItem, CloudProviderId } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { ConnectForm } from '../shared/ConnectForm.tsx';
import {
  CardError,
  ConnectionCard,
  RemoveButton,
  SyncButton,
  type SyncedCardProps,
  useCardAction,
} from '../shared/ConnectionCard.tsx';
import { FreeRuleNotice } from '../shared/FreeRuleNotice.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { ScrollRegion } from '../shared/ScrollRegion.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useOnline } from '../shared/use-online.ts';

/**
 * Settings → Cloud: read-only cloud accounts. Each read keeps every public address and resource the
 * account holds, and remembers what it let go, so a record still pointing at a released address is
 * found as once-yours.
 */
export function CloudAccountsPanel() {
  const [accounts, setAccounts] = useState<CloudAccountView[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<CloudAccountView | null>(null);
  const [syncing, setSyncing] = useState<CloudAccountView | null>(null);
  const online = useOnline();

  const load = useCallback(async (): Promise<CloudAccountView[] | null> => {
    setLoadError(null);
    try {
      const { accounts: fresh } = await dashboardApi().cloudAccounts.list();
      setAccounts(fresh);
      return fresh;
    } catch (cause) {
      setLoadError(failureMessage(cause, 'The cloud accounts could not be loaded.'));
      return null;
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // A read queued: the list is read again until it shows (or a minute passes).
  useEffect(() => {
    if (!syncing) return;
    const until = Date.now() + SYNC_FOLLOW_MS;
    const timer = setInterval(async () => {
      const now = (await load())?.find((a) => a.id === syncing.id);
      const read = !now || now.lastSyncAt !== syncing.lastSyncAt || now.syncError !== syncing.syncError;
      if (read || Date.now() > until) setSyncing(null);
    }, SYNC_POLL_MS);
    return () => clearInterval(timer);
  }, [syncing, load]);

  return (
    <div className="max-w-3xl space-y-6 text-sm" data-testid="cloud-accounts-panel">
      <div>
        <h2 className="text-lg font-semibold text-ink">Cloud accounts</h2>
        <p className="mt-1 text-slate-700">
          A record still pointing at a cloud address you gave back serves whoever the cloud hands it to next.
          From outside, that address answers like any other server; your account knows it was once yours.
          Connect an account with a read-only credential: every public address and resource it holds is
          recorded, and remembered after it is released.
        </p>
      </div>
      {!online && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {DASHBOARD_MESSAGES.offline}
        </p>
      )}
      {loadError && <LoadError message={loadError} onRetry={() => void load()} />}
      {!accounts && !loadError && <Spinner label="Loading cloud accounts" />}
      {accounts &&
        (accounts.length === 0 ? (
          <p className="text-slate-700" data-testid="cloud-accounts-empty">
            No cloud account connected yet.
          </p>
        ) : (
          <ul className="space-y-3">
            {accounts.map((account) => (
              <CloudAccountCard
                key={account.id}
                account={account}
                disabled={!online}
                reading={syncing?.id === account.id}
                onChanged={() => void load()}
                onSyncQueued={setSyncing}
                onRemove={setRemoving}
              />
            ))}
          </ul>
        ))}
      <div>
        <h3 className="font-semibold text-ink">Connect a cloud account</h3>
        <div className="mt-2 space-y-3">
          <FreeRuleNotice screen="cloud" />
          <ConnectCloudForm
            onConnected={(account) => {
              void load();
              setSyncing(account);
            }}
          />
        </div>
      </div>
      {removing && (
        <ConfirmDialog
          title="Remove Cloud Account"
          question={`Remove ${removing.label}?`}
          confirmLabel="Remove Account"
          busyLabel="Removing..."
          fallbackError="The cloud account could not be removed."
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await dashboardApi().cloudAccounts.remove(removing.id);
            toast({
              title: 'Cloud Account Removed',
              description: `${removing.label}: its credential is deleted.`,
            });
            setRemoving(null);
            await load();
          }}
        >
          The credential and everything the account's reads remembered are deleted from DangleWatch at once.
          Records pointing into this cloud are then judged without it.
        </ConfirmDialog>
      )}
    </div>
  );
}

interface CardProps extends SyncedCardProps<CloudAccountView> {
  account: CloudAccountView;
}

export function CloudAccountCard({
  account,
  disabled,
  reading,
  onChanged,
  onSyncQueued,
  onRemove,
}: CardProps) {
  const { busy, error, detail, run } = useCardAction();
  const [grace, setGrace] = useState(String(account.graceHours));
  const [showInventory, setShowInventory] = useState(false);
  const id = useId();
  const cloud = cloudInfo(account.provider);
  const api = dashboardApi().cloudAccounts;

  const sync = () =>
    run(async () => {
      await api.sync(account.id);
      toast({
        title: 'Sync Queued',
        description: `${account.label}: its addresses and resources are read again now.`,
      });
      onSyncQueued(account);
    }, 'The sync could not be queued.');
  const enable = () =>
    run(async () => {
      await api.update(account.id, { enabled: true });
      toast({ title: 'Account Re-enabled', description: `${account.label}: you answer for it now.` });
      onChanged();
    }, 'The account could not be re-enabled.');
  // Said beside the field, not at the card's foot: on a phone that is below the screen.
  const [graceError, setGraceError] = useState<string | null>(null);
  const saveGrace = async () => {
    const parsed = parseGraceHours(grace);
    setGraceError('error' in parsed ? parsed.error : null);
    if ('error' in parsed) return;
    const { hours } = parsed;
    await run(async () => {
      await api.update(account.id, { graceHours: hours });
      toast({ title: 'Grace Period Saved', description: `${account.label}: ${hours} hours.` });
      onChanged();
    }, 'The grace period could not be saved.');
  };

  return (
    <ConnectionCard
      testId="cloud-account"
      title={account.label}
      meta={{
        what: cloud.label,
        credentialHint: account.credentialHint,
        added: `added on ${formatDateTime(account.createdAt)}${account.accounts.length > 0 ? ` · ${account.accounts.join(', ')}` : ''}`,
      }}
      last={
        <>
          Last read: {formatDateTime(account.lastSyncAt, 'not read yet')} · {account.counts.addresses}{' '}
          {account.counts.addresses === 1 ? 'address' : 'addresses'}, {account.counts.resources}{' '}
          {account.counts.resources === 1 ? 'resource' : 'resources'} remembered
          {reading && ' · reading the account now...'}
        </>
      }
      lastTestId="cloud-last-read"
      failure={
        account.syncError
          ? {
              title: 'The last read failed:',
              words: account.syncError,
              detail: account.syncErrorDetail,
              testId: 'cloud-sync-error',
            }
          : null
      }
      connection={account}
      onEnable={enable}
      readOnly={disabled}
      actions={
        <>
          <SyncButton off={disabled || busy || reading || account.disabled !== null} onClick={sync} />
          <button
            type="button"
            className={BUTTON.small}
            aria-expanded={showInventory}
            onClick={() => setShowInventory(!showInventory)}
          >
            {showInventory ? 'Hide inventory' : 'Inventory'}
          </button>
          <RemoveButton label={account.label} onClick={() => onRemove(account)} />
        </>
      }
    >
      <form
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void saveGrace();
        }}
      >
        <label htmlFor={`${id}-grace`} className="block text-xs">
          <span className="block font-medium text-ink">Grace period (hours)</span>
          <input
            id={`${id}-grace`}
            type="number"
            min={0}
            max={MAX_GRACE_HOURS}
            step={1}
            className="mt-1 w-28 rounded-md border border-slate-300 px-2 py-1"
            value={grace}
            aria-invalid={graceError !== null}
            aria-describedby={graceError ? `${id}-grace-error` : undefined}
            onChange={(event) => setGrace(event.target.value)}
          />
        </label>
        <button type="submit" className={BUTTON.small} disabled={disabled || busy}>
          Save
        </button>
        <span className="text-xs text-slate-600">
          How long an address may be missing from the account before a record pointing at it is a finding.
        </span>
      </form>
      {graceError && (
        <p id={`${id}-grace-error`} role="alert" className="mt-1 text-sm text-red-700">
          {graceError}
        </p>
      )}
      {account.unneededRights.length > 0 && (
        <p
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="cloud-unneeded-rights"
        >
          <span className="font-semibold">This credential can do more than read:</span>{' '}
          {account.unneededRights.join(', ')}. DangleWatch needs none of these; give it the read rights above
          only.
        </p>
      )}
      {account.lastSyncAt && !account.rightsChecked && (
        <RightsUnchecked cloud={cloud} policy={rightsCheckPolicyFor(cloud, account.accounts)} />
      )}
      <CardError error={error} detail={detail} />
      {showInventory && <CloudInventoryList accountId={account.id} />}
    </ConnectionCard>
  );
}

/** Where the cloud did not say what else the credential may do: how the user can check, or let us. */
function RightsUnchecked({ cloud, policy }: { cloud: CloudInfo; policy: string | undefined }) {
  return (
    <div
      className="mt-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
      data-testid="cloud-rights-unchecked"
    >
      <p>
        <span className="font-semibold">Rights beyond reading not checked.</span> {cloud.rightsUnchecked}
      </p>
      {policy && (
        <ScrollRegion label={`The ${cloud.label} rights-check policy`} className="mt-2">
          <pre className="text-xs">{policy}</pre>
        </ScrollRegion>
      )}
    </div>
  );
}

export function ConnectCloudForm({ onConnected }: { onConnected: (account: CloudAccountView) => void }) {
  const [cloudId, setCloudId] = useState<CloudProviderId>('aws');
  const cloud = cloudInfo(cloudId);
  return (
    <ConnectForm
      name="Connect a cloud account"
      testId="connect-cloud-form"
      choiceLabel="Cloud"
      choices={CLOUDS}
      chosen={cloud}
      onChoose={setCloudId}
      guide={
        <div className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-slate-700">
          <p>{cloud.rights}</p>
          {cloud.policy && (
            <ScrollRegion label={`The ${cloud.label} read policy`} className="mt-2">
              <pre className="text-xs">{cloud.policy}</pre>
            </ScrollRegion>
          )}
          {cloud.rightsCheckPolicy && (
            <details className="mt-2">
              <summary className="cursor-pointer">
                Optional: let DangleWatch check that the key holds nothing more
              </summary>
              <ScrollRegion label={`The ${cloud.label} rights-check policy`} className="mt-2">
                <pre className="text-xs">{cloud.rightsCheckPolicy}</pre>
              </ScrollRegion>
            </details>
          )}
        </div>
      }
      fallbackError="The cloud account could not be connected."
      connect={async (credentials, label) => {
        const { account } = await dashboardApi().cloudAccounts.create(cloudId, credentials, label);
        toast({
          title: 'Cloud Account Connected',
          description: `${account.label}: its first read is under way.`,
        });
        onConnected(account);
      }}
    />
  );
}

/** What an account holds and held, a page at a time: each item held now, or released and last seen when. */
export function CloudInventoryList({
  accountId,
  initial,
}: {
  accountId: string;
  /** A first page already read (tests render without calls). */
  initial?: { items: CloudInventoryItem[]; nextCursor: string | null };
}) {
  const [items, setItems] = useState<CloudInventoryItem[] | null>(initial?.items ?? null);
  const [cursor, setCursor] = useState<string | null>(initial?.nextCursor ?? null);
  const [error, setError] = useState<string | null>(null);
  const more = useCallback(
    async (after?: string) => {
      setError(null);
      try {
        const page = await dashboardApi().cloudAccounts.inventory(accountId, after ? { cursor: after } : {});
        setItems((before) => [...(after ? (before ?? []) : []), ...page.items]);
        setCursor(page.nextCursor);
      } catch (cause) {
        setError(failureMessage(cause, 'The inventory could not be loaded.'));
      }
    },
    [accountId],
  );
  useEffect(() => {
    if (!initial) void more();
  }, [initial, more]);
  if (error) return <LoadError message={error} onRetry={() => void more()} />;
  if (!items) return <Spinner label="Loading the inventory" />;
  if (items.length === 0) return <p className="mt-3 text-slate-700">Nothing read yet.</p>;
  return (
    <div className="mt-3" data-testid="cloud-inventory">
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {items.map((item) => (
          <li
            key={`${item.kind} ${item.value}`}
            className="flex flex-wrap justify-between gap-2 px-3 py-1.5 text-xs"
          >
            <span className="font-mono break-all text-ink">{item.value}</span>
            <span className="text-slate-600">
              {item.type} {item.name}
              {item.region ? ` · ${item.region}` : ''} ·{' '}
              {item.held ? 'held now' : `released, last seen ${formatDateTime(item.lastSeenAt)}`}
            </span>
          </li>
        ))}
      </ul>
      {cursor && (
        <button type="button" className={`${BUTTON.small} mt-2`} onClick={() => void more(cursor)}>
          Load more
        </button>
      )}
    </div>
  );
}
