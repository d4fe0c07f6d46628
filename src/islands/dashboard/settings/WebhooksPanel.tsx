import { useCallback, useEffect, useId, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { firstAttempt, testResultToast } from '../../../lib/dashboard/webhook-test.ts';
import { toast } from '../../../lib/toast.ts';
import {
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  type WebhookDeliveryView,
  type WebhookView,
} from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { CopyButton } from '../shared/CopyButton.tsx';
import { Spinner } from '../shared/Spinner.tsx';

/**
 * Webhooks for change alerts: add an https:// URL (our JSON, or a Slack, Teams or Discord message), see its signing secret,
 * send a test, remove it, and read the delivery log. Alerts reach every live webhook of the account for
 * each domain whose webhook alerts are on (Scan Settings); a disabled one says why and is re-enabled here.
 */
export function WebhooksPanel() {
  const [hooks, setHooks] = useState<WebhookView[] | null>(null);
  const [deliveries, setDeliveries] = useState<WebhookDeliveryView[]>([]);
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<WebhookView['format']>('json');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const urlId = useId();
  const formatId = useId();

  const load = useCallback(async () => {
    try {
      const answer = await dashboardApi().webhooks.list();
      setHooks(answer.webhooks);
      setDeliveries(answer.deliveries);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The webhooks could not be loaded.');
      setHooks([]);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      toast({ title: done });
      await load();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };

  // The worker sends the test; the toast waits for its first attempt and says how it went.
  const sendTest = async (hook: WebhookView) => {
    setBusy(true);
    setError(null);
    try {
      const api = dashboardApi().webhooks;
      const { delivery } = await api.test(hook.id);
      toast(testResultToast(await firstAttempt(() => api.list(), delivery.id)));
      await load();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'That did not work.');
    } finally {
      setBusy(false);
    }
  };

  if (!hooks) return <Spinner label="Loading webhooks" />;
  const urlOf = (id: string) => hooks.find((h) => h.id === id)?.url ?? 'removed webhook';
  return (
    <div className="max-w-3xl space-y-6 text-sm" data-testid="webhooks-panel">
      <div>
        <h2 className="text-lg font-semibold text-ink">Webhooks</h2>
        <p className="mt-1 text-slate-700">
          Each scan that finds something new, worse or fixed is posted to these URLs, signed with the
          webhook's secret (header <code>X-DangleWatch-Signature</code>; see the docs for the check).
        </p>
      </div>
      <form
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            await dashboardApi().webhooks.add(url.trim(), format);
            setUrl('');
          }, 'Webhook Added');
        }}
      >
        <label htmlFor={urlId} className="flex-1">
          <span className="block font-medium text-ink">Webhook URL</span>
          <input
            id={urlId}
            type="url"
            required
            placeholder="https://hooks.example.com/danglewatch"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        </label>
        <label htmlFor={formatId}>
          <span className="block font-medium text-ink">Format</span>
          <select
            id={formatId}
            className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2"
            value={format}
            onChange={(event) => setFormat(event.target.value as WebhookView['format'])}
          >
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {WEBHOOK_FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={BUTTON.primary} disabled={busy}>
          Add Webhook
        </button>
      </form>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      {hooks.length === 0 ? (
        <p className="text-slate-700">No webhooks yet.</p>
      ) : (
        <ul className="space-y-3">
          {hooks.map((hook) => (
            <li key={hook.id} className="rounded-lg border border-slate-200 p-3" data-testid="webhook">
              <p className="font-mono break-all text-ink">{hook.url}</p>
              <p className="mt-1 text-xs text-slate-600">
                {WEBHOOK_FORMAT_LABELS[hook.format] ?? hook.format} · added {formatDateTime(hook.createdAt)}
              </p>
              {hook.disabled && (
                <div
                  className="mt-2 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900"
                  data-testid="webhook-disabled"
                >
                  <p className="flex-1">
                    <strong>Disabled</strong> {formatDateTime(hook.disabled.at)}: {hook.disabled.reason}. It
                    gets no alerts until it is re-enabled.
                  </p>
                  <button
                    type="button"
                    className={BUTTON.small}
                    disabled={busy}
                    aria-label={`Re-enable ${hook.url}`}
                    onClick={() => act(() => dashboardApi().webhooks.enable(hook.id), 'Webhook Re-enabled')}
                  >
                    Re-enable
                  </button>
                </div>
              )}
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <span className="text-xs text-slate-700">Secret</span>
                <code className="rounded bg-slate-100 px-2 py-0.5 text-xs">{hook.secret}</code>
                <CopyButton value={hook.secret} label={`Copy the secret of ${hook.url}`} />
                <button
                  type="button"
                  className={BUTTON.small}
                  disabled={busy || hook.disabled !== null}
                  onClick={() => void sendTest(hook)}
                >
                  Send test
                </button>
                <button
                  type="button"
                  className={BUTTON.small}
                  disabled={busy}
                  onClick={() => act(() => dashboardApi().webhooks.remove(hook.id), 'Webhook Removed')}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div>
        <div className="flex items-center justify-between">
          <h3 className="font-semibold text-ink">Delivery log</h3>
          <button type="button" className={BUTTON.small} onClick={() => void load()}>
            Refresh
          </button>
        </div>
        {deliveries.length === 0 ? (
          <p className="mt-1 text-slate-700">Nothing delivered yet.</p>
        ) : (
          <table className="mt-2 w-full text-left text-xs" data-testid="delivery-log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Webhook</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id} className="align-top">
                  <td>{formatDateTime(d.updatedAt)}</td>
                  <td className="break-all">{urlOf(d.webhookId)}</td>
                  <td>{d.kind}</td>
                  <td>
                    {d.status} ({d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'})
                  </td>
                  <td>{d.responseStatus ?? d.error ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
