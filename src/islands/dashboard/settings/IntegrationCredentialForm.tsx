import { useId, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { INTEGRATION_LABELS, type IntegrationView } from '../../../model/integrations.ts';
import { BUTTON } from '../shared/buttons.ts';
import { INTEGRATION_FIELDS } from './integration-fields.ts';

interface Props {
  integration: IntegrationView;
  onReplaced: () => Promise<void>;
  onCancel: () => void;
}

/**
 * A new credential for a connected service (a token rotated or revoked): checked with the service
 * before it replaces the old one, so the tickets already filed are kept and found again.
 */
export function IntegrationCredentialForm({ integration, onReplaced, onCancel }: Props) {
  const fields = INTEGRATION_FIELDS[integration.kind].credentials;
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  return (
    <form
      className="mt-3 grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3 sm:grid-cols-2"
      aria-label={`New credential for ${integration.label}`}
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(null);
        try {
          await dashboardApi().integrations.update(integration.id, {
            credentials: Object.fromEntries(fields.map(({ name }) => [name, (values[name] ?? '').trim()])),
          });
          await onReplaced();
        } catch (cause) {
          setError(cause instanceof Error ? cause.message : 'The credential could not be replaced.');
        } finally {
          setBusy(false);
        }
      }}
    >
      {fields.map((field) => (
        <label key={field.name} htmlFor={`${id}-${field.name}`}>
          <span className="block font-medium text-ink">{field.label}</span>
          <input
            id={`${id}-${field.name}`}
            required
            type={field.name === 'email' ? 'text' : 'password'}
            autoComplete="off"
            className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2"
            value={values[field.name] ?? ''}
            onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
          />
        </label>
      ))}
      {error && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800 sm:col-span-2"
        >
          {error}
        </p>
      )}
      <div className="flex gap-2 sm:col-span-2">
        <button type="submit" className={BUTTON.primary} disabled={busy}>
          {busy ? `Asking ${INTEGRATION_LABELS[integration.kind]}...` : 'Replace Credential'}
        </button>
        <button type="button" className={BUTTON.small} disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
