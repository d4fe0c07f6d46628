import { useCallback, useEffect, useId, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import { serviceBesideName } from '../../../model/connections.ts';
import { FINDING_STATUSES, type FindingStatus } from '../../../model/contract.ts';
import {
  DEFAULT_INTEGRATION_MIN_STATUS,
  deliveryWords,
  INTEGRATION_KINDS,
  INTEGRATION_LABELS,
  type IntegrationDeliveryView,
  type IntegrationKind,
  type IntegrationView,
  type JiraChoices,
} from '../../../model/integrations.ts';
import { BUTTON } from '../shared/buttons.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { ConnectionCard, RemoveButton } from '../shared/ConnectionCard.tsx';
import { FreeRuleNotice } from '../shared/FreeRuleNotice.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { IntegrationCredentialForm } from './IntegrationCredentialForm.tsx';
import { INTEGRATION_FIELDS } from './integration-fields.ts';
import { JiraFields } from './JiraFields.tsx';

const STATUS_WORDS: Record<FindingStatus, string> = {
  claimable: 'Claimable only',
  likely: 'Likely and claimable',
  review: 'Every finding (review too)',
};

/** The least status that files, widest last: the connect form's choice and each card's. */
const STATUS_OPTIONS = [...FINDING_STATUSES].reverse().map((s) => (
  <option key={s} value={s}>
    {STATUS_WORDS[s]}
  </option>
));

/** The card's line about deliveries: the last one's outcome, never "delivered" while they fail. */
export function deliveryLine(item: IntegrationView): string {
  if (item.failing) return `Failing since ${formatDateTime(item.failing.at)}`;
  if (!item.lastDelivery) return 'Nothing delivered yet';
  return `Last delivery ${formatDateTime(item.lastDelivery.at)}: ${item.lastDelivery.ok ? 'delivered' : 'failed'}`;
}

/**
 * Trackers and pagers: each finding becomes one ticket (or PagerDuty alert), closed when it is fixed
 * or accepted, filed again when it comes back. Admins connect a service here (its credential is
 * checked with the service first), choose the least status that files, send a test, and read the
 * last deliveries.
 */
export function IntegrationsPanel() {
  const [items, setItems] = useState<IntegrationView[] | null>(null);
  const [kind, setKind] = useState<IntegrationKind>('pagerduty');
  const [values, setValues] = useState<Record<string, string>>({});
  const [minStatus, setMinStatus] = useState<FindingStatus>(DEFAULT_INTEGRATION_MIN_STATUS);
  const [log, setLog] = useState<{ id: string; deliveries: IntegrationDeliveryView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [jira, setJira] = useState<JiraChoices | null>(null);
  const [removing, setRemoving] = useState<IntegrationView | null>(null);
  const [replacing, setReplacing] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const kindId = useId();
  const statusId = useId();
  const fieldId = useId();

  const load = useCallback(async () => {
    try {
      setItems((await dashboardApi().integrations.list()).integrations);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The integrations could not be loaded.');
      setItems([]);
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

  /** Asks the Jira site typed in for its projects, or for a project's issue types and done statuses. */
  const askJira = async (projectKey?: string) => {
    setAsking(true);
    setError(null);
    try {
      const answer = await dashboardApi().integrations.jiraChoices({
        siteUrl: (values.siteUrl ?? '').trim(),
        credentials: { email: (values.email ?? '').trim(), apiToken: (values.apiToken ?? '').trim() },
        ...(projectKey ? { projectKey } : {}),
      });
      setJira(answer);
      // The likeliest choices are preselected; the admin may change them.
      setValues((typed) => ({
        ...typed,
        projectKey: projectKey ?? '',
        issueType: answer.issueTypes.find((t) => t.name === 'Bug')?.name ?? answer.issueTypes[0]?.name ?? '',
        doneTransition:
          answer.transitions.find((t) => t.name === 'Done')?.name ?? answer.transitions[0]?.name ?? '',
      }));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The Jira site could not be asked.');
    } finally {
      setAsking(false);
    }
  };

  if (!items) return <Spinner label="Loading integrations" />;
  const fields = INTEGRATION_FIELDS[kind];
  const pick = (names: { name: string }[]) =>
    Object.fromEntries(names.map(({ name }) => [name, (values[name] ?? '').trim()]));
  return (
    <div className="max-w-3xl space-y-6 text-sm" data-testid="integrations-panel">
      {removing && (
        <ConfirmDialog
          title="Remove Integration"
          question={`Remove ${removing.label}?`}
          confirmLabel="Remove Integration"
          busyLabel="Removing..."
          fallbackError="The integration could not be removed."
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await dashboardApi().integrations.remove(removing.id);
            toast({
              title: 'Integration Removed',
              description: `${removing.label}: its credential is deleted.`,
            });
            setRemoving(null);
            await load();
          }}
        >
          <p>
            Its credential and delivery log are deleted. The tickets it filed stay in{' '}
            {INTEGRATION_LABELS[removing.kind]} as they are: DangleWatch no longer updates or closes them.
          </p>
        </ConfirmDialog>
      )}
      <div>
        <h2 className="text-lg font-semibold text-ink">Integrations</h2>
        <p className="mt-1 text-slate-700">
          One ticket per finding in your tracker or pager, found again by the finding's key (never by its
          title): a rescan that changes nothing sends nothing, a fix or an accepted risk closes it with a
          comment, and it is filed again when the finding comes back.
        </p>
      </div>
      <FreeRuleNotice screen="integrations" />
      <form
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          void act(async () => {
            await dashboardApi().integrations.add({
              kind,
              minStatus,
              settings: pick(fields.settings),
              credentials: pick(fields.credentials),
            });
            setValues({});
            setJira(null);
          }, `${INTEGRATION_LABELS[kind]} Connected`);
        }}
      >
        <label htmlFor={kindId}>
          <span className="block font-medium text-ink">Service</span>
          <select
            id={kindId}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2"
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as IntegrationKind);
              setValues({});
              setJira(null);
            }}
          >
            {INTEGRATION_KINDS.map((k) => (
              <option key={k} value={k}>
                {INTEGRATION_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={statusId}>
          <span className="block font-medium text-ink">Files</span>
          <select
            id={statusId}
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2"
            value={minStatus}
            onChange={(event) => setMinStatus(event.target.value as FindingStatus)}
          >
            {STATUS_OPTIONS}
          </select>
        </label>
        {kind === 'jira' && (
          <JiraFields
            idPrefix={fieldId}
            values={values}
            choices={jira}
            loading={asking}
            disabled={busy}
            onChange={(name, value) => {
              setValues((typed) => ({ ...typed, [name]: value }));
              // Another site or account: what the old one offered no longer holds.
              if (name === 'siteUrl' || name === 'email' || name === 'apiToken') setJira(null);
            }}
            onLoad={(projectKey) => void askJira(projectKey)}
          />
        )}
        {(kind === 'jira' ? [] : [...fields.settings, ...fields.credentials]).map((field) => {
          const secret = fields.credentials.includes(field as never);
          return (
            <label key={field.name} htmlFor={`${fieldId}-${field.name}`}>
              <span className="block font-medium text-ink">{field.label}</span>
              <input
                id={`${fieldId}-${field.name}`}
                required
                type={secret && field.name !== 'email' ? 'password' : 'text'}
                autoComplete="off"
                placeholder={'placeholder' in field ? String(field.placeholder) : undefined}
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
                value={values[field.name] ?? ''}
                onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
              />
            </label>
          );
        })}
        <div className="sm:col-span-2">
          <button type="submit" className={BUTTON.primary} disabled={busy}>
            Connect {INTEGRATION_LABELS[kind]}
          </button>
        </div>
      </form>
      {error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
      {items.length === 0 ? (
        <p className="text-slate-700">No integrations yet.</p>
      ) : (
        <ul className="space-y-3">
          {items.map((item) => (
            <ConnectionCard
              key={item.id}
              testId="integration"
              title={
                <>
                  {item.label}
                  {serviceBesideName(item.label, INTEGRATION_LABELS[item.kind]) && (
                    <span className="text-slate-600"> ({INTEGRATION_LABELS[item.kind]})</span>
                  )}
                </>
              }
              meta={{
                // Linear keeps its team's id for its calls; people know the team by name and key.
                what: item.settings.team ?? Object.values(item.settings).join(' · '),
                credentialHint: item.credentialHint,
                added: `connected ${formatDateTime(item.createdAt)}`,
              }}
              last={deliveryLine(item)}
              lastTestId="integration-last-delivery"
              failure={
                item.failing
                  ? {
                      title: item.failing.retrying
                        ? 'Deliveries are failing; the last one will be tried again:'
                        : item.failing.test
                          ? 'The test failed:'
                          : 'Deliveries are failing: tickets are not reaching it.',
                      words: item.failing.error || 'no reason given',
                      testId: 'integration-failing',
                    }
                  : null
              }
              connection={item}
              onEnable={() =>
                act(
                  () => dashboardApi().integrations.update(item.id, { enabled: true }),
                  'Integration Re-enabled',
                )
              }
              readOnly={busy}
              actions={
                <>
                  <label className="text-xs">
                    <span className="sr-only">Files for {item.label}</span>
                    <select
                      className="rounded-md border border-slate-300 bg-white px-2 py-1"
                      value={item.minStatus}
                      disabled={busy}
                      onChange={(event) =>
                        void act(
                          () =>
                            dashboardApi().integrations.update(item.id, {
                              minStatus: event.target.value as FindingStatus,
                            }),
                          'Integration Saved',
                        )
                      }
                    >
                      {STATUS_OPTIONS}
                    </select>
                  </label>
                  <button
                    type="button"
                    className={BUTTON.small}
                    disabled={busy}
                    onClick={() => void act(() => dashboardApi().integrations.test(item.id), 'Test Queued')}
                  >
                    Send a test
                  </button>
                  <button
                    type="button"
                    className={BUTTON.small}
                    disabled={busy}
                    onClick={async () =>
                      setLog({
                        id: item.id,
                        deliveries: (await dashboardApi().integrations.deliveries(item.id)).deliveries,
                      })
                    }
                  >
                    Deliveries
                  </button>
                  <button
                    type="button"
                    className={BUTTON.small}
                    disabled={busy}
                    aria-expanded={replacing === item.id}
                    onClick={() => setReplacing(replacing === item.id ? null : item.id)}
                  >
                    Replace credential
                  </button>
                  <RemoveButton label={item.label} disabled={busy} onClick={() => setRemoving(item)} />
                </>
              }
            >
              {replacing === item.id && (
                <IntegrationCredentialForm
                  integration={item}
                  onReplaced={async () => {
                    setReplacing(null);
                    toast({
                      title: 'Credential Replaced',
                      description: `${item.label}: what failed to deliver is being sent again.`,
                    });
                    await load();
                  }}
                  onCancel={() => setReplacing(null)}
                />
              )}
              {log?.id === item.id && (
                <ul className="mt-2 space-y-1 text-xs text-slate-700" data-testid="integration-deliveries">
                  {log.deliveries.length === 0 && <li>No deliveries yet.</li>}
                  {log.deliveries.map((d) => (
                    <li key={d.id}>
                      {formatDateTime(d.createdAt)} · {deliveryWords(d)}
                    </li>
                  ))}
                </ul>
              )}
            </ConnectionCard>
          ))}
        </ul>
      )}
    </div>
  );
}
