import { type ReactNode, useId, useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { providerWords } from '../../../lib/request/errors.ts';
import { CONNECTION_LABEL_MAX } from '../../../model/constants.ts';
import type { CredentialField } from '../../../model/credential-field.ts';
import { BUTTON } from './buttons.ts';
import { FailureNotice } from './FailureNotice.tsx';
import { useOnline } from './use-online.ts';

const INPUT = 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2';

interface Props<P extends string> {
  /** The form's accessible name: "Connect a DNS provider". */
  name: string;
  testId: string;
  /** The select's label ("Provider", "Cloud") and its choices. */
  choiceLabel: string;
  choices: readonly { id: P; label: string }[];
  chosen: { id: P; label: string; fields: readonly CredentialField[] };
  onChoose: (id: P) => void;
  /** What to grant and how, shown under the choice. */
  guide: ReactNode;
  /**
   * Sends the credential (trimmed; an empty optional field left out) with its label; throws what the
   * server refused. The server checks the credential with the provider and stores nothing it refuses.
   */
  connect: (credentials: Record<string, string>, label: string) => Promise<void>;
  fallbackError: string;
}

/**
 * The one connect form of Settings' outside accounts (DNS providers, clouds): the provider, its
 * guide, a label, the credential's fields, and a failure as a sentence with the provider's own words
 * below it. A choice changes the fields and clears what was typed.
 */
export function ConnectForm<P extends string>({
  name,
  testId,
  choiceLabel,
  choices,
  chosen,
  onChoose,
  guide,
  connect,
  fallbackError,
}: Props<P>) {
  const [label, setLabel] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ sentence: string; detail: string | null } | null>(null);
  const online = useOnline();
  const formId = useId();

  const submit = async () => {
    if (!online) {
      setError({ sentence: DASHBOARD_MESSAGES.offline, detail: null });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const credentials = Object.fromEntries(
        chosen.fields
          .map((f) => [f.key, (values[f.key] ?? '').trim(), f.optional] as const)
          .filter(([, value, optional]) => value !== '' || !optional)
          .map(([key, value]) => [key, value]),
      );
      await connect(credentials, label);
      setValues({});
      setLabel('');
    } catch (cause) {
      setError({ sentence: failureMessage(cause, fallbackError), detail: providerWords(cause) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label={name}
      className="space-y-3 text-sm"
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={`${formId}-choice`} className="block">
        <span className="block font-medium text-ink">{choiceLabel}</span>
        <select
          id={`${formId}-choice`}
          className="mt-1 rounded-md border border-slate-300 bg-white px-3 py-2"
          value={chosen.id}
          onChange={(event) => {
            onChoose(event.target.value as P);
            setValues({});
            setError(null);
          }}
        >
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {guide}
      <label htmlFor={`${formId}-label`} className="block">
        <span className="block font-medium text-ink">Label (optional)</span>
        <input
          id={`${formId}-label`}
          type="text"
          maxLength={CONNECTION_LABEL_MAX}
          placeholder={`${chosen.label} (production)`}
          className={INPUT}
          value={label}
          onChange={(event) => setLabel(event.target.value)}
        />
      </label>
      {chosen.fields.map((field) => {
        const id = `${formId}-${field.key}`;
        const common = {
          id,
          required: !field.optional,
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
                type={field.input}
                onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
              />
            )}
          </label>
        );
      })}
      {error && <FailureNotice detail={error.detail}>{error.sentence}</FailureNotice>}
      <button type="submit" className={BUTTON.primary} disabled={busy || !online}>
        {busy ? 'Checking the credential...' : `Connect ${chosen.label}`}
      </button>
    </form>
  );
}
