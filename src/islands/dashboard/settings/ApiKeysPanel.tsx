import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useId, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { toast } from '../../../lib/toast.ts';
import { API_ACCESS_MESSAGES, API_KEY_NAME_MAX } from '../../../model/api-access.ts';
import type { ApiKeyView, CreatedApiKey } from '../../../model/contract.ts';
import { getPlan } from '../../../model/plans.ts';
import { getPlanForTier } from '../../../model/profile.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { CopyButton } from '../shared/CopyButton.tsx';
import { Spinner } from '../shared/Spinner.tsx';

/**
 * Settings → API: keys for the public API (/docs/api). A new key's secret is shown once, here,
 * with a copy button; the list shows each key's first characters, when it was created and last
 * used, and lets the user revoke it (after a confirmation). On a plan without API access the
 * panel says which plans have it; existing keys can still be revoked.
 */
export function ApiKeysPanel() {
  const auth = useAuth();
  const workspace = useStore($currentWorkspace);
  // Keys belong to the current workspace, and its plan decides API access.
  const plan = workspace ? getPlan(workspace.plan) : getPlanForTier(auth.userProfile?.tier ?? 'free');
  const hasApi = plan.limits.apiCallsPerHour > 0;
  const [keys, setKeys] = useState<ApiKeyView[] | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameId = useId();

  const load = useCallback(async () => {
    try {
      setKeys((await dashboardApi().apiKeys.list()).keys);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The API keys could not be loaded.');
      setKeys([]);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      setCreated(await dashboardApi().apiKeys.create(name.trim()));
      setName('');
      await load();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The key could not be created.');
    } finally {
      setBusy(false);
    }
  };

  if (!keys) return <Spinner label="Loading API keys" />;
  return (
    <div className="max-w-3xl space-y-6 text-sm" data-testid="api-keys-panel">
      <div>
        <h2 className="text-lg font-semibold text-ink">API keys</h2>
        <p className="mt-1 text-slate-700">
          Scripts and CI pipelines call the DangleWatch API with a key instead of signing in: list your
          domains, start scans, read scans and findings. See the{' '}
          <a className="underline" href="/docs/api">
            API documentation
          </a>
          .
        </p>
      </div>
      {hasApi ? (
        <>
          <p className="text-slate-700">
            Your {plan.name} plan allows {plan.limits.apiCallsPerHour.toLocaleString('en-US')} calls per hour,
            for all your keys together.
          </p>
          <form
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
            onSubmit={(event) => {
              event.preventDefault();
              void create();
            }}
          >
            <label htmlFor={nameId} className="flex-1">
              <span className="block font-medium text-ink">Key name</span>
              <input
                id={nameId}
                required
                maxLength={API_KEY_NAME_MAX}
                placeholder="GitHub Actions"
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            </label>
            <button type="submit" className={BUTTON.primary} disabled={busy || !name.trim()}>
              Create Key
            </button>
          </form>
        </>
      ) : (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900"
          data-testid="api-plan"
        >
          {API_ACCESS_MESSAGES.planRequired(plan.name)}{' '}
          <a className="font-medium underline" href="/dashboard?section=settings&tab=plan">
            See your plan
          </a>
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      {created && (
        <div className="rounded-lg border border-brand-100 bg-brand-50 p-4" data-testid="new-api-key">
          <p className="font-semibold text-ink">Copy your new key “{created.key.name}” now</p>
          <p className="mt-1 text-slate-700">
            It is shown only this once: DangleWatch keeps a hash of it, not the key. Store it in your CI's
            secret store; anyone who has it can act as you through the API.
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <code className="rounded bg-white px-2 py-1 font-mono text-xs break-all text-ink">
              {created.secret}
            </code>
            <CopyButton
              value={created.secret}
              label="Copy the new API key"
              copied="API key copied to clipboard"
            />
            <button type="button" className={BUTTON.small} onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {keys.length === 0 ? (
        <p className="text-slate-700">No API keys yet.</p>
      ) : (
        <table className="w-full text-left text-xs" data-testid="api-keys">
          <caption className="sr-only">Your API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} className="align-middle">
                <th scope="row" className="py-2 font-medium text-ink">
                  {key.name}
                </th>
                <td className="font-mono">{key.prefix}…</td>
                <td>{formatDateTime(key.createdAt)}</td>
                <td>{formatDateTime(key.lastUsedAt)}</td>
                <td>
                  {key.revokedAt ? (
                    `Revoked ${formatDateTime(key.revokedAt)}`
                  ) : (
                    <button
                      type="button"
                      className={BUTTON.small}
                      onClick={() => setRevoking(key)}
                      aria-label={`Revoke ${key.name}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <RevokeKeyDialog
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            void load();
          }}
        />
      )}
    </div>
  );
}

function RevokeKeyDialog({
  apiKey,
  onClose,
  onRevoked,
}: {
  apiKey: ApiKeyView;
  onClose: () => void;
  onRevoked: () => void;
}) {
  return (
    <ConfirmDialog
      title="Revoke API Key"
      question={`Revoke ${apiKey.name} (${apiKey.prefix}…)?`}
      confirmLabel="Revoke Key"
      busyLabel="Revoking..."
      fallbackError="The key could not be revoked."
      onClose={onClose}
      onConfirm={async () => {
        await dashboardApi().apiKeys.revoke(apiKey.id);
        toast({ title: 'API Key Revoked', description: `${apiKey.name} no longer works.` });
        onRevoked();
      }}
    >
      Every script that uses this key gets 401 from its next call on. This cannot be undone; create a new key
      to replace it.
    </ConfirmDialog>
  );
}
